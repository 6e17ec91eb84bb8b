"""Numbers and names as simdom's answers show them (simdom.present re-exports every one): an estimate rounded
to what its 95% interval supports, ``0.72 (0.71-0.74)``, the bounds rounded outward; a number without an
interval to 3 significant figures; a p-value never ``0``; an undefined value ``n/a``; names sorted naturally
(K=1, K=5, K=13, K=never). Pure Python: no polars, no numpy."""
from __future__ import annotations

import math
import re
from typing import Any, Iterable, Sequence

P_FLOOR = 1e-16
NA = "n/a"


# ---- numbers --------------------------------------------------------------------------------------
def undefined(x: Any) -> bool:
    """None or NaN: shown as n/a."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def _fixed(x: float, decimals: int) -> str:
    s = f"{x:.{decimals}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s  # no "-0.00"


def _outward(v: float, decimals: int, direction: int) -> float:
    """``v`` rounded away from the estimate (down for a lower bound): a printed interval is never narrower."""
    scale = 10.0**decimals
    f = math.floor if direction < 0 else math.ceil
    return f(v * scale - direction * 1e-9) / scale


def decimals_for(lo: Any, hi: Any, cap: int = 6) -> int | None:
    """Decimals that an interval supports: those of its half-width's first significant digit."""
    if undefined(lo) or undefined(hi) or math.isinf(lo) or math.isinf(hi):
        return None
    half = (hi - lo) / 2
    if half <= 0:
        return None
    return min(cap, max(0, -math.floor(math.log10(half))))


def num(x: Any, sig: int = 3) -> str:
    """A number without interval: integers as they are, floats to ``sig`` significant figures."""
    if undefined(x):
        return NA
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    if abs(x) < 1e-12:  # floating-point noise around an exact zero
        return "0"
    if 1e-4 <= abs(x) < 1e6:
        d = max(0, sig - 1 - math.floor(math.log10(abs(x))))
        return _fixed(x, d)
    return f"{x:.{sig - 1}e}"


def count(n: Any) -> str:
    """A count with thousands separators."""
    return NA if undefined(n) else f"{int(n):,}"


def nouns(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular or plural: ``1 arm``, ``2 arms``, ``1,000 deals``."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def est(x: Any, lo: Any = None, hi: Any = None, *, pct: bool = False, signed: bool = False) -> str:
    """``0.72 (0.71-0.74)``; ``pct`` shows a share in percent (no % sign: say so in the header)."""
    if undefined(x):
        return NA
    k = 100.0 if pct else 1.0
    x = x * k
    d = decimals_for(None if undefined(lo) else lo * k, None if undefined(hi) else hi * k)
    if d is None:
        text = num(x)
        return ("+" + text if signed and x > 0 and not text.startswith("+") else text)
    lo, hi = lo * k, hi * k
    # up to two decimals more where outward rounding would make an interval that excludes 0 look as if
    # it reached it: 0.3 with interval 0.004-0.6 is "0.300 (0.004-0.600)", not "0.3 (0.0-0.6)"
    for _ in range(2):
        if not ((lo > 0 and _outward(lo, d, -1) <= 0) or (hi < 0 and _outward(hi, d, 1) >= 0)) or d >= 6:
            break
        d += 1
    lo, hi = _outward(lo, d, -1), _outward(hi, d, 1)
    sx = _fixed(x, d)
    if signed and float(sx) > 0:
        sx = "+" + sx
    slo, shi = _fixed(lo, d), _fixed(hi, d)
    sep = " to " if slo.startswith("-") or shi.startswith("-") else "-"
    return f"{sx} ({slo}{sep}{shi})"


def rounded(x: Any, lo: Any = None, hi: Any = None, *, pct: bool = False) -> str:
    """The estimate alone, rounded to what its interval supports: ``0.72``."""
    return est(x, lo, hi, pct=pct).split(" (", 1)[0]


def ci(x: Any, lo: Any, hi: Any, *, pct: bool = False, unit: str = "", level: int | None = 95,
       signed: bool = False) -> str:
    """For a sentence: ``0.72 points per deal (95% CI 0.71-0.74)``; ``level=None`` leaves out
    "95% CI" (``18.5% (18.0-19.0%)``) once a sentence has said it."""
    text = est(x, lo, hi, pct=pct, signed=signed)
    if " (" not in text:
        return text + ("%" if pct else "") + (f" {unit}" if unit else "")
    head, tail = text.split(" (", 1)
    u = "%" if pct else ""
    label = f"{level}% CI " if level else ""
    return f"{head}{u}{' ' + unit if unit else ''} ({label}{tail[:-1]}{u})"


#: the words after a share or mean that the rules or the policies decide (``{name}_fixed`` in the rows)
FIXED_BY = {"rules": "fixed by the rules", "policy": "fixed by the policies",
            "rules and policies": "fixed by the rules and the policies"}


def fixed(x: Any, *, pct: bool = False, by: str = "rules", unit: str = "") -> str:
    """For a sentence, a value fixed by construction (no interval): ``100% (fixed by the rules)``."""
    v = num(x * 100.0 if pct else x)
    return f"{v}{'%' if pct else ''}{' ' + unit if unit else ''} ({FIXED_BY.get(by, by)})"


def every(x: Any, bound: Any, units: Any, *, what: str = "deal") -> str:
    """For a sentence, a share observed 0 or 1 where no rule fixes it (finite data prove nothing):
    ``100% in every deal (95% exact one-sided bound over 4,800 deals: at least 99.94%)``."""
    one = float(x) >= 1
    side = "at least" if one else "at most"
    b = 100.0 * float(bound)
    gap = 100.0 - b if one else b  # two significant digits of the distance from the share, rounded outward
    d = min(6, max(0, 1 - math.floor(math.log10(gap)))) if gap > 0 else 0
    text = _fixed(_outward(b, d, -1 if one else 1), d)
    return (f"{'100% in every' if one else '0%, in no'} {what} (95% exact one-sided bound over {count(units)} "
            f"{what}s: {side} {text}%)")


def pval(p: Any) -> str:
    """A p-value for people: ``n/a`` if undefined, ``<1e-16`` below that, else 2 significant figures."""
    if undefined(p):
        return NA
    if p < P_FLOOR:
        return "<1e-16"
    if p >= 0.995:
        return "1"
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


def p_clause(p: Any, name: str = "p") -> str:
    """For a sentence: ``p = 0.043``, ``p < 1e-16`` or ``p n/a``."""
    text = pval(p)
    if text.startswith("<"):
        return f"{name} < {text[1:]}"
    return f"{name} {text}" if text == NA else f"{name} = {text}"


# ---- names ---------------------------------------------------------------------------------------
_PIECES = re.compile(r"(\d+)")


def natural_key(name: Any) -> tuple:
    """Sort key that orders embedded numbers by value: K=1 < K=5 < K=13 < K=never."""
    out = []
    for i, piece in enumerate(_PIECES.split(str(name))):
        if piece:
            out.append((0, int(piece), "") if i % 2 else (1, 0, piece.lower()))
    return tuple(out)


def order(values: Iterable[Any], preferred: Sequence[Any] = ()) -> list[Any]:
    """Distinct ``values`` in the ``preferred`` order (e.g. the manifest's arms), the rest naturally."""
    vals = list(dict.fromkeys(values))
    rank = {v: i for i, v in enumerate(preferred)}
    return sorted(vals, key=lambda v: (0, rank[v], ()) if v in rank else (1, 0, natural_key(v)))
