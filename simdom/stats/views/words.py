"""Words for comparisons of policies, shared by the statistics and the run summary (pure Python)."""
from __future__ import annotations

_HOLD = "hold:until="


def change_phrase(base: str, new: str) -> tuple[str, str]:
    """(subject, reference) to say that a player plays ``new`` instead of ``base``: ("Holding the first
    double until K=9", "playing it at once (K=1)"), or ("Playing random", "greedy")."""
    def hold(k: str, subject: bool) -> str:
        if k == "1":
            return "playing the first double at once (K=1)" if subject else "playing it at once (K=1)"
        if k == "never":
            return "never playing the first double early (K=never)" if subject else "never playing it early (K=never)"
        return f"holding the first double until K={k}" if subject else f"holding it until K={k}"

    if new.startswith(_HOLD) and base.startswith(_HOLD):
        text = hold(new[len(_HOLD):], True)
        return text[0].upper() + text[1:], hold(base[len(_HOLD):], False)
    return f"Playing {new}", base


def others(policies: list[str], focal: int) -> str:
    """The other players of an arm: '3 greedy players' or 'greedy, random and greedy'."""
    rest = [p for i, p in enumerate(policies) if i != focal]
    if len(set(rest)) == 1:
        return f"{len(rest)} {rest[0]} player{'s' if len(rest) > 1 else ''}"
    return ", ".join(rest[:-1]) + f" and {rest[-1]}"
