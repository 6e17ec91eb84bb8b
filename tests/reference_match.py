"""An independent referee for match traces (docs/rules.md 12), written from docs/rules.md alone: it never imports
simdom. Each deal is checked by the deal referee of reference.py (with the deal's free lead, partners'
end bonus and the placement that wins the match as hooks); this module keeps the match's score:

* sides (each seat, or partners 0+2 against 1+3), and each deal's ``match`` object: id, hand, sides,
  before, credited, after, over, winner;
* credits in the order they arise: under ``deal_end`` the deal's totals after the deal, then the
  highest side with >= T wins (a tie for highest plays on); under ``immediate`` each placement's points
  plus bonus, then the end bonus, a side winning the moment it reaches T; under ``exact`` the same,
  each credit all or nothing (not counted when it would pass T), a side winning on exactly T;
* a placement that wins stops the deal there (``end`` "target", no end bonus);
* who leads each deal (``next_lead``: the first deal and ``rules`` by section 6; ``hand_winner`` the
  seat that dominoed, any tile, after a block the rules' lead; ``rotate`` the seat after the previous
  leader, any tile);
* ``max_deals``; the file: matches with ids 0, 1, 2, ... one after another, ``deal`` counting from 0.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from reference import Referee


def sides_of(rules: dict) -> list[list[int]]:
    if rules.get("teams") == "partners":
        return [[0, 2], [1, 3]]
    return [[s] for s in range(int(rules["players"]))]


class MatchReferee:
    """Replays the deal records of one match; ``problems`` lists what breaks docs/rules.md."""

    def __init__(self, records: Sequence[dict], policies: "str | Sequence[str] | None" = None):
        self.records = list(records)
        self.policies = policies
        self.problems: list[str] = []
        self.seen: Counter = Counter()  # the situations of section 12 met, so tests can ask for coverage

    def bad(self, msg: str) -> None:
        self.problems.append(msg)

    def run(self) -> list[str]:
        try:
            self._run()
        except (KeyError, ValueError, TypeError, IndexError) as e:
            self.bad(f"malformed match record: {type(e).__name__}: {e}")
        return self.problems

    def _run(self) -> None:
        recs = self.records
        R = recs[0]["rules"]
        T = int(R["target"])
        if T <= 0:
            self.bad(f"target = {T}: not a match")
            return
        mode, next_lead, max_deals = R["match_end"], R["next_lead"], int(R["max_deals"])
        n = int(R["players"])
        partners = R["teams"] == "partners"
        if partners and n != 4:
            self.bad("teams = partners with players != 4")
            return
        sides = sides_of(R)
        side = (lambda s: s % 2) if partners else (lambda s: s)
        mid = recs[0]["match"]["id"]
        scores = [0] * len(sides)
        winner: int | None = None
        over = False
        prev = None
        for h, rec in enumerate(recs):
            where = f"match {mid}, deal {h}"
            if rec["rules"] != R:
                self.bad(f"{where}: rules differ from the match's first deal")
                return
            mo = rec["match"]
            if (mo["id"], mo["hand"]) != (mid, h):
                self.bad(f"{where}: match id/hand {mo['id']}/{mo['hand']}, expected {mid}/{h}")
                return
            if over:
                self.bad(f"{where}: the match was over after deal {h - 1}")
                return
            # -- who leads (docs/rules.md 12, next_lead)
            free, want = False, None
            if prev is not None and next_lead == "hand_winner" and prev["end"] == "domino":
                free, want = True, prev["actions"][-1]["seat"]
            elif prev is not None and next_lead == "rotate":
                free, want = True, (prev["first"] + 1) % n
            if want is not None and rec["first"] != want:
                self.bad(f"{where}: seat {rec['first']} leads, next_lead = {next_lead} gives seat {want}")
                return
            if prev is not None:
                self.seen[f"{next_lead} after {prev['end']}"] += 1
                if free and R["lead"].startswith("tile:") and rec["actions"][0]["tile"] != R["lead"][5:]:
                    self.seen["free lead of another tile"] += 1
            # -- the deal, crediting as it goes
            before = list(scores)
            credited = [0] * len(sides)
            won: list[int] = []
            skipped: list[int] = []

            def credit(j: int, c: int) -> bool:
                if c > 0 and mode == "exact" and scores[j] + c > T:
                    skipped.append(j)
                    return False
                if c <= 0:
                    return False
                if j in skipped:
                    self.seen["exact: a credit fits after an overshoot"] += 1
                scores[j] += c
                credited[j] += c
                hit = scores[j] == T if mode == "exact" else scores[j] >= T
                if hit:
                    won.append(j)
                return hit

            def on_play(seat: int, points: int, bonus: int) -> bool:
                return mode != "deal_end" and credit(side(seat), points + bonus)

            ref = Referee(rec, self.policies, free_lead=free, partners=partners, on_play=on_play)
            for p in ref.run():
                self.bad(f"{where}: {p}")
            if self.problems:
                return
            if rec["end"] != "target":
                if mode == "deal_end":
                    for s in range(n):
                        scores[side(s)] += ref.totals[s]
                        credited[side(s)] += ref.totals[s]
                    top = max(scores)
                    if top >= T and scores.count(top) == 1:
                        won.append(scores.index(top))
                else:
                    for s in range(n):
                        if ref.end_bonus[s]:
                            credit(side(s), ref.end_bonus[s])
            if won:
                winner = won[0]
                self.seen[f"{mode}: won at {rec['end']}"] += 1
            if skipped:
                self.seen["exact: an overshoot credits nothing"] += 1
            if mode == "deal_end" and not won and max(scores) >= T:
                self.seen["deal_end: a tie for highest plays on"] += 1
            if partners and rec["end"] == "blocked" and any(ref.end_bonus):
                self.seen["partners: blocked with an end bonus"] += 1
            if partners and rec["end"] == "domino" and any(ref.end_bonus):
                self.seen["partners: domino with an end bonus"] += 1
            over = winner is not None or h + 1 >= max_deals
            want_mo = {"sides": sides, "before": before, "credited": credited,
                       "after": [b + c for b, c in zip(before, credited)], "over": over, "winner": winner}
            for key, v in want_mo.items():
                if mo.get(key) != v:
                    self.bad(f"{where}: match.{key} = {mo.get(key)!r}, the rules give {v!r}")
            if self.problems:
                return
            prev = rec
        if not over:
            self.bad(f"match {mid}: the records stop after {len(recs)} deals before the match is over")
        elif winner is None:
            self.seen["max_deals: no winner"] += 1
        self.scores, self.winner, self.deals = scores, winner, len(recs)


def check_match(records: Sequence[dict], policies: "str | Sequence[str] | None" = None) -> list[str]:
    """The problems of one match's deal records (empty: it follows docs/rules.md 12)."""
    return MatchReferee(records, policies).run()


def check_match_file(records: Sequence[dict], policies: "str | Sequence[str] | None" = None,
                     seen: Counter | None = None) -> list[str]:
    """A match trace file: whole matches one after another, ids 0, 1, 2, ...; ``deal`` counts the
    file's deals from 0; each match checked by :func:`check_match` (situations met added to ``seen``)."""
    problems = []
    for i, rec in enumerate(records):
        if rec.get("deal") != i:
            problems.append(f"line {i + 1}: deal = {rec.get('deal')}, expected {i}")
    groups: list[list[dict]] = []
    for rec in records:
        if not groups or groups[-1][0]["match"]["id"] != rec["match"]["id"]:
            groups.append([])
        groups[-1].append(rec)
    for k, g in enumerate(groups):
        if g[0]["match"]["id"] != k:
            problems.append(f"match {k} of the file has id {g[0]['match']['id']}")
        ref = MatchReferee(g, policies)
        problems += ref.run()
        if seen is not None:
            seen.update(ref.seen)
    return problems
