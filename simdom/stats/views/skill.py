"""The answers of `simdom skill` and `simdom ladder` from their JSON data: what the commands print and
what the report's luck-and-skill section shows (simdom/report/skill.py), the same sentences and tables."""
from __future__ import annotations

from simdom import present as P

#: simdom skill's beginners (the learning effect is measured from each)
BEGINNERS = ("random", "greedy")


def _rating(x: float) -> str:
    return f"{x:,.0f}"


def skill_answer(rows: list[dict]) -> P.Answer:
    """The answer of `simdom skill`: the share by points and by wins against each beginner, then the tables."""
    from simdom.results import Unit  # here: the CLI loads this module, and simdom.results loads polars
    first = rows[0]
    by = {(x["by"], x["beginner"]): x for x in rows}
    unit = Unit(first.get("unit", "deal"))  # a match: points are the side's final match score, wins the match won
    game = f"a match to {first['target']:,}" if unit.is_match else "a deal"

    def share(x: dict) -> str:
        return P.ci(x["skill"], x["skill_lo"], x["skill_hi"])

    sentences = []
    for beg in BEGINNERS:
        pts, win = by[("points", beg)], by[("wins", beg)]
        lo, hi = pts["skill_lo"], pts["skill_hi"]
        # a deal's share is a lower bound (a better fair player can only raise it): it shows that the play
        # decides more than the tiles when its interval is above one half, and can never show the opposite
        if not unit.is_match:
            verdict = (f"{game} is decided more by the play than by the tiles" if lo > 0.5 else
                       "a lower bound below one half cannot tell whether the tiles or the play decide more (a "
                       "stronger fair player would raise it)" if hi < 0.5 else
                       "too few deals to tell whether the play decides more than the tiles")  # NaN bounds too
        else:
            verdict = (f"{game} is decided more by the tiles than by the play" if hi < 0.5 else
                       f"{game} is decided more by the play than by the tiles" if lo > 0.5 else
                       "too few matches to tell whether the tiles or the play decide more")
        who = "" if beg == "random" else f"Against a {beg} beginner: "
        to = f" to {first['target']:,}" if unit.is_match else ""
        lead = f"{first['rules']}{to}, {first['players']} players: " if beg == "random" else ""
        least = "" if unit.is_match else "at least "  # a match's share is no bound (the notes say why)
        sentences.append(f"{lead}{who}skill share {least}{share(pts)} by points, {P.rounded(win['skill'], win['skill_lo'], win['skill_hi'])} "
                         f"by wins{' (beginner random); ' + verdict if beg == 'random' else ''}.")
    ans = P.Answer(sentences, data={"rows": [{k: v for k, v in x.items()} for x in rows]})
    ans.add(P.Table("Player 0's mean per match (points: the final match score)" if unit.is_match else
                    "Player 0's mean per deal", rows, [
        P.Col("by"), P.Col("beginner"), P.Col("beginner_value", "beginner", "num"),
        P.Col("optimal_value", "optimal", "num"), P.Col("fictive_value", "fictive", "num")], keys=2))
    ans.add(P.Table("Skill share LE / (LE + RE)", rows, [
        P.Col("by"), P.Col("beginner"), P.Col("learning_effect", "LE", "est"), P.Col("random_effect", "RE", "est"),
        P.Col("skill", "skill", "est")], keys=2))
    fictive = ", ".join(dict.fromkeys(f"{x['fictive']} for {x['by']}" for x in rows))
    bound = (f"A lower bound: the optimal player ({first['optimal']}) is only as good as the best policy at "
             f"hand; the fictive player ({fictive}) sees every hand and maximises the row's payoff."
             if not unit.is_match else
             f"Not a bound in matches: the optimal player ({first['optimal']}) is only as good as the best policy "
             f"at hand, which lowers the share, and the fictive player ({first['fictive']}) sees each hand but "
             f"does not plan for the match score, which raises it.")
    ans.notes += [f"{bound} Opponents: {first['opponents']}.",
                  f"{first['deals']:,} {unit.plural}, each with player 0 in every seat; 95% intervals clustered by "
                  f"{unit} (Fieller's for the share)."]
    return ans


def _p_next(h: dict) -> str:
    """p(a finishes above the next policy), rounded to what its interval supports."""
    return P.rounded(h["p_a_beats_b"], h["lo"], h["hi"])


def ladder_answer_of(data: dict) -> P.Answer:
    """The answer of a ladder's JSON (:func:`ladder_data`): what the command prints, what the report shows."""

    ratings, anchor = data["ratings"], data["anchor"]
    pair = {(h["a"], h["b"]): h for h in data["head_to_head"]}
    top, second = ratings[0], ratings[1]
    gap = round(top["rating"]) - round(second["rating"])  # of the shown ratings
    lead = f"level with {second['policy']}" if gap == 0 else f"{gap:,} above {second['policy']}"
    rated = (f"is the anchor, rated {_rating(top['rating'])}" if top["policy"] == anchor else
             f"is rated {_rating(top['rating'])} ({_rating(top['rating_lo'])}-{_rating(top['rating_hi'])})")
    head = (f"{top['policy']} {rated}, {lead}; the rating spread is "
            f"{_rating(data['spread'])} ({_rating(data['spread_lo'])}-{_rating(data['spread_hi'])}).")
    why = "" if anchor == "random" else " (random is not in the field: the first policy is the anchor)"
    boot = f"{data['replicates']} bootstrap replicates" if data.get("replicates") else "a bootstrap"
    from simdom.results import Unit
    match = Unit(data.get("unit", "deal")).is_match
    games = (f"{data['deals']:,} matches to {data['target']:,}, each in all {data['seatings']} seatings of the "
             f"{P.nouns(len(ratings), 'policy', 'policies')} on the same shuffles hand by hand" if match else
             f"{data['deals']:,} deals, each in all {data['seatings']} seatings of the "
             f"{P.nouns(len(ratings), 'policy', 'policies')} on the same tiles")
    context = (f"{data['rules'].capitalize()}, {data['players']} players: {games}, played in "
               f"{data['seconds']:.1f} s; Plackett-Luce ratings on the finishing orders{' (the winner first, then by score)' if match else ''}, "
               f"Elo scale, {anchor} anchored at {_rating(data['anchor_rating'])}{why}; 95% intervals from {boot} "
               f"over {'matches' if match else 'deals'}.")
    shown = [{"policy": r["policy"], "rating": _rating(r["rating"]),
              "ci": "anchor" if r["policy"] == anchor else f"{_rating(r['rating_lo'])}-{_rating(r['rating_hi'])}",
              "p_next": "" if x + 1 == len(ratings) else
              _p_next(pair[(r['policy'], ratings[x + 1]['policy'])]),
              "games": r["games"]} for x, r in enumerate(ratings)]
    cols = [P.Col("policy"), P.Col("rating", align="right"), P.Col("ci", "95% CI", align="right"),
            P.Col("p_next", "p beats next", align="right"), P.Col("games", kind="int")]
    h_rows = [{"pair": f"{h['a']} > {h['b']}", "p": h["p_a_beats_b"], "p_lo": h["lo"], "p_hi": h["hi"]}
              for h in data["head_to_head"]]  # p rounded to what its interval supports
    h_cols = [P.Col("pair", "a beats b"), P.Col("p", "p (95% CI)", kind="est")]
    ans = P.Answer([head, context], [P.Table("ratings, best first", shown, cols),
                                     P.Table("head-to-head: p(a finishes above b)", h_rows, h_cols)])
    ans.notes.append(f"Seats tied on {'score' if match else 'points'} are ordered at random (a draw of the seed "
                     f"and the {'match' if match else 'deal'}).")
    ans.data = data
    return ans
