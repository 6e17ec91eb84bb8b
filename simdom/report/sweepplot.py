"""A rule study in pictures (issue 58.2): each key measure of `simdom balance` against each swept parameter,
one line per player count, each point with its 95% interval (clustered by deal, the scorecard's), the
baseline ringed. `simdom balance --plot FILE.png|svg` writes it; the report's scorecard section shows it.

A parameter's panel is the slice of the study through the baseline: the variants whose other swept
parameters have the baseline's values (a grid of bonus x min_ends: the bonus at the baseline's min_ends,
and min_ends at the baseline's bonus). The swept parameters are read from the variants' names
(``KEY=VALUE`` joined by ``+``, simdom.run.sweep); arms named otherwise are one axis, ``variant``."""
from __future__ import annotations

from simdom.present import natural_key
from simdom.report.plots import COLORS, DPI, MARKERS, WIDTH, _err, plt
from simdom.stats.tables.balance import PERCENT, Study

#: the measures drawn, in order, with their axis labels (those the study has; skill with --skill)
DRAWN = (("leader_win", "leader's win, %"), ("seat_spread", "seat spread, points"),
         ("decision_share", "turns with a choice, %"), ("draws", "draws per deal"), ("skill", "skill share, %"))


def _parse(name: str) -> dict[str, str] | None:
    parts = [p.partition("=") for p in name.split("+")]
    return {k: v for k, _, v in parts} if all(sep and k for k, sep, _ in parts) else None


def swept(s: Study) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The swept parameters (in the names' order) and each arm's values of them; arms whose names are not
    ``KEY=VALUE`` pairs (or not all alike) are one parameter, ``variant``."""
    names = [a["name"] for a in s.arms]
    parsed = [_parse(n) for n in names]
    keys = list(parsed[0]) if parsed[0] else []
    if not keys or any(p is None or list(p) != keys for p in parsed):
        return ["variant"], {n: {"variant": n} for n in names}
    return keys, dict(zip(names, parsed))


def _figure(ss: list[Study]):
    from simdom.stats.views.glance import entry
    keys, _ = swept(ss[0])
    measures = [(m, label) for m, label in DRAWN
                if any(entry(s, s.baseline, m)[0] is not None for s in ss)]
    fig, axes = plt.subplots(len(measures), len(keys), figsize=(WIDTH, 1.0 + 2.1 * len(measures)), squeeze=False)
    for col, key in enumerate(keys):
        for row, (m, label) in enumerate(measures):
            ax = axes[row][col]
            ticks: list[str] = []
            for i, s in enumerate(ss):
                _, values = swept(s)
                base = values[s.baseline]
                arms = [n for n, v in values.items() if all(v.get(k) == base.get(k) for k in keys if k != key)]
                ticks = sorted(set(ticks) | {values[n].get(key, n) for n in arms}, key=natural_key)
                pts = []
                for n in arms:
                    e = entry(s, n, m)[0]
                    if e is not None:
                        pts.append((values[n].get(key, n), e, n == s.baseline))
                pts.sort(key=lambda p: ticks.index(p[0]))
                k = 100.0 if m in PERCENT or m == "seat_spread" else 1.0
                x = [ticks.index(p[0]) for p in pts]
                y = [k * p[1]["value"] for p in pts]
                err = _err(y, [k * p[1]["low"] for p in pts], [k * p[1]["high"] for p in pts])
                color = COLORS[i % len(COLORS)]
                ax.errorbar(x, y, yerr=err, color=color, marker=MARKERS[i % len(MARKERS)], ms=4, lw=1.2, capsize=2,
                            label=f"{s.players} players" if len(ss) > 1 else s.name)
                ax.plot([xb for xb, p in zip(x, pts) if p[2]], [yb for yb, p in zip(y, pts) if p[2]], "o", ms=11,
                        mfc="none", mec=color, mew=1.2, label="baseline" if i == 0 and row == 0 and col == 0 else None)
                if m == "leader_win":  # the fair share
                    ax.axhline(100.0 / s.players, color=color, lw=0.8, ls="--", alpha=0.5)
            ax.set_xticks(range(len(ticks)))
            ax.set_xticklabels(ticks, rotation=25 if max(map(len, ticks), default=0) > 6 else 0, ha="right"
                               if max(map(len, ticks), default=0) > 6 else "center", fontsize=7)
            ax.tick_params(axis="y", labelsize=7)
            if col == 0:
                ax.set_ylabel(label, fontsize=8)
            if row == len(measures) - 1:
                ax.set_xlabel(key, fontsize=8)
            ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    top = 1 - 0.7 / (1.0 + 2.1 * len(measures))  # the title and the legend above the panels
    fig.tight_layout(rect=(0, 0, 1, top))
    fig.suptitle("Each key measure against each swept parameter (95% intervals; dashed: the fair share)",
                 fontsize=9, y=0.998, va="top")
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, top), ncol=len(labels), fontsize=8,
               frameon=False)
    return fig


def sweep_plot(ss: list[Study], fmt: str = "png") -> bytes:
    """The figure as PNG or SVG bytes."""
    import io
    fig = _figure(ss)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=DPI)
    plt.close(fig)
    return buf.getvalue()
