"""Report figures (matplotlib, Agg backend) returned as PNG bytes.

Every figure: a title, labelled axes, 95% intervals drawn (error bars or bands), axes zoomed to the
data (never a bar from 0 that hides the differences that matter), a dashed reference line at the fair
share or at no difference where one exists, legends outside the data, one panel per arm or game where
scales differ (small multiples), series side by side rather than on top of each other, a log scale
where values span decades. 7.5 inches wide at 100 dpi: 750 px, which prints on A4 unscaled.
"""
from __future__ import annotations

import functools
import io
import math
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import MaxNLocator, MultipleLocator  # noqa: E402

WIDTH = 7.5
DPI = 100
COLORS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d", "#bab0ac"]
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    plt.close(fig)
    return buf.getvalue()


def png(build):
    """A figure builder as a function that returns the PNG bytes; ``f.figure(...)`` is the builder itself,
    returning the matplotlib Figure (what the tests read: the points, markers and texts drawn)."""
    @functools.wraps(build)
    def draw(*args, **kw) -> bytes:
        return _png(build(*args, **kw))
    draw.figure = build  # type: ignore[attr-defined]
    return draw


def _err(est, lo, hi) -> np.ndarray:
    est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
    return np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)])


def _zoom(values: Sequence[float], ref: float | None, pad: float = 0.08) -> tuple[float, float]:
    """Limits around the data (and the reference line), with a margin."""
    v = [float(x) for x in values if x is not None and math.isfinite(float(x))]
    if ref is not None:
        v.append(ref)
    if not v:
        return 0.0, 1.0
    lo, hi = min(v), max(v)
    span = hi - lo or abs(hi) * 0.1 or 1.0
    return lo - pad * span, hi + pad * span


def _grid(n: int, cols: int = 2) -> tuple[int, int]:
    cols = 1 if n == 1 else cols
    return math.ceil(n / cols), cols


@png
def dot_panels(panels: Sequence[tuple[str, Sequence[str], Sequence[float], Sequence[float], Sequence[float]]], *,
               title: str, xlabel: str, ref: float | None = None, ref_label: str = "", scale: float = 1.0) -> plt.Figure:
    """One horizontal dot-and-interval panel per group: ``(panel title, labels, est, lo, hi)``; the
    x axis is zoomed to the data and the reference line (e.g. the fair share)."""
    heights = [max(len(p[1]), 1) * 0.28 + 0.7 for p in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(WIDTH, sum(heights) + 0.6), layout="constrained",
                             height_ratios=heights, squeeze=False)
    for ax, (name, labels, est, lo, hi) in zip(axes[:, 0], panels):
        e, l_, h = (np.asarray(x, float) * scale for x in (est, lo, hi))
        y = np.arange(len(labels))[::-1]
        ax.errorbar(e, y, xerr=_err(e, l_, h), fmt="o", color=COLORS[0], capsize=3, markersize=4,
                    label="estimate, 95% interval")
        if ref is not None:
            ax.axvline(ref * scale, color="#888", linestyle="--", linewidth=1, label=ref_label)
        ax.set_yticks(y, labels, fontsize=8)
        ax.set_xlim(*_zoom(np.r_[l_, h], None if ref is None else ref * scale))
        ax.set_ylim(-0.7, len(labels) - 0.3)
        ax.set_title(name, fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel(xlabel)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    fig.suptitle(title, fontsize=11)
    return fig


@png
def position_plot(series: dict[str, tuple[Sequence[float], Sequence[float], Sequence[float]]],
                  positions: Sequence[str], *, title: str, xlabel: str, ylabel: str, ref: float | None = None,
                  ref_label: str = "", scale: float = 1.0, min_half: float | None = None):
    """Estimates by position (x) for several series (arms), side by side with 95% error bars. With
    ``min_half`` (in the plotted unit) and a reference line, the y axis is centred on the reference and
    spans at least that much either side: intervals that all touch the fair share stay small against it,
    rather than being zoomed until noise looks like structure."""
    fig, ax = plt.subplots(figsize=(WIDTH, 3.4), layout="constrained")
    n = len(series)
    width = min(0.8 / max(n, 1), 0.18)
    x = np.arange(len(positions))
    allv = []
    for i, (name, (est, lo, hi)) in enumerate(series.items()):
        e, l_, h = (np.asarray(v, float) * scale for v in (est, lo, hi))
        allv += list(l_) + list(h)
        ax.errorbar(x + (i - (n - 1) / 2) * width, e, yerr=_err(e, l_, h), fmt=MARKERS[i % 8], capsize=3,
                    markersize=4, color=COLORS[i % 8], label=name, linestyle="none")
    if ref is not None:
        ax.axhline(ref * scale, color="#888", linestyle="--", linewidth=1, label=ref_label)
    ax.set_xticks(x, positions)
    if ref is not None and min_half is not None:
        far = max([abs(v - ref * scale) for v in allv if math.isfinite(v)] or [0.0])
        half = max(1.1 * far, min_half)
        ax.set_ylim(ref * scale - half, ref * scale + half)
    else:
        ax.set_ylim(*_zoom(allv, None if ref is None else ref * scale))
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)  # outside the data
    return fig


@png
def line_panels(panels: dict[str, dict[str, tuple]], *, title: str, xlabel: str, ylabel: str,
                logy: bool = False, scale: float = 1.0, cols: int = 2, mass: float | None = None,
                steps: dict[str, int] | None = None):
    """Small multiples: one panel per key of ``panels``, each with series ``name -> (x, est, lo, hi)``
    drawn as lines with markers and a shaded 95% band; each panel has its own x range (with ``mass``,
    cut to the values holding that share of every series, so long thin tails do not squash the rest);
    ``steps``: a panel's bin width, its x ticks then fall on bin starts."""
    rows, ncol = _grid(len(panels), cols)
    fig, axes = plt.subplots(rows, ncol, figsize=(WIDTH, 2.4 * rows + 0.7), layout="constrained", squeeze=False)
    names: dict[str, int] = {}
    zeros_marked = False
    for ax, (panel, series) in zip(axes.flat, panels.items()):
        xmax = -np.inf
        for name, (x, est, lo, hi) in series.items():
            k = names.setdefault(name, len(names))
            x = np.asarray(x, float)
            e, l_, h = (np.asarray(v, float) * scale for v in (est, lo, hi))
            if logy:  # a zero has no place on a log axis: marked at its 95% upper bound, never dropped
                zero = ~(e > 0)
                up = zero & (h > 0)
                if up.any():
                    ax.scatter(x[up], h[up], marker="v", s=14, facecolors="none", edgecolors=COLORS[k % 8],
                               linewidths=0.9, zorder=3, label="_zero")
                    zeros_marked = True
                e, l_, h = np.where(zero, np.nan, e), np.where(zero, np.nan, np.maximum(l_, e / 100)), \
                    np.where(zero, np.nan, h)
            if mass is not None and len(e):
                cum = np.cumsum(np.nan_to_num(e)) / np.nansum(e)
                xmax = max(xmax, x[min(np.searchsorted(cum, mass), len(x) - 1)])
            ax.plot(x, e, color=COLORS[k % 8], linewidth=1.1, marker=MARKERS[k % 8], markersize=2.5, label=name)
            ax.fill_between(x, l_, h, color=COLORS[k % 8], alpha=0.25, linewidth=0)
        if mass is not None and np.isfinite(xmax):
            ax.set_xlim(right=xmax + 1)
        if logy:
            ax.set_yscale("log")
        ax.set_title(panel, fontsize=9, loc="left")
        step = (steps or {}).get(panel)
        if step:  # ticks on the bin starts: multiples of the bin width
            lo_x, hi_x = ax.get_xlim()
            ax.xaxis.set_major_locator(MultipleLocator(step * max(1, math.ceil((hi_x - lo_x) / step / 10))))
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.supxlabel(xlabel, fontsize=9)
    fig.supylabel(ylabel, fontsize=9)
    handles = [plt.Line2D([], [], color=COLORS[k % 8], marker=MARKERS[k % 8]) for k in names.values()]
    labels = list(names)
    if zeros_marked:
        handles.append(plt.Line2D([], [], color="#444", marker="v", markerfacecolor="none", linestyle="none"))
        labels.append("none seen: its 95% upper bound")
    fig.suptitle(title, fontsize=11)
    if len(labels) > 1:
        fig.legend(handles, labels, loc="outside right upper", fontsize=8, frameon=False)
    return fig


@png
def metric_panels(metrics: Sequence[tuple[str, Sequence[str], Sequence[float], Sequence[float], Sequence[float]]],
                  *, title: str, ref: Sequence[float | None] = ()):
    """One small panel per measure (each on its own scale): ``(measure, labels, est, lo, hi)``."""
    n = len(metrics)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH, 1.9 * rows + 0.6), layout="constrained", squeeze=False)
    for i, (ax, (name, labels, est, lo, hi)) in enumerate(zip(axes.flat, metrics)):
        e, l_, h = (np.asarray(v, float) for v in (est, lo, hi))
        y = np.arange(len(labels))[::-1]
        for j in range(len(labels)):
            ax.errorbar(e[j], y[j], xerr=_err(e[j:j + 1], l_[j:j + 1], h[j:j + 1]), fmt=MARKERS[j % 8],
                        color=COLORS[j % 8], capsize=3, markersize=4)
        r = ref[i] if i < len(ref) else None
        if r is not None:
            ax.axvline(r, color="#888", linestyle="--", linewidth=1)
        ax.set_yticks(y, labels, fontsize=8)
        ax.set_ylim(-0.7, len(labels) - 0.3)
        ax.set_xlim(*_zoom(np.r_[l_, h], r))
        ax.set_title(name, fontsize=9, loc="left")
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=11)
    return fig


@png
def heatmap_panels(panels: Sequence[tuple[str, Sequence[str], Sequence[str], np.ndarray, np.ndarray, np.ndarray]], *,
                   title: str, xlabel: str, ylabel: str, cbar: str, counts: Sequence[np.ndarray] | None = None):
    """One heatmap per group: ``(panel title, row labels, column labels, values, lo, hi)`` (2-D arrays,
    nan: no data), on one diverging colour scale centred at 0; each cell shows its value, marked * when
    its 95% interval excludes 0 (a cell whose interval includes 0 is drawn pale) and, with ``counts`` (one
    2-D array per panel), the number of units it holds (n=...)."""
    n = len(panels)
    rows, cols = _grid(n)
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH, 1.0 + 2.8 * rows), squeeze=False, layout="constrained")
    vmax = max([float(np.nanmax(np.abs(v))) for _, _, _, v, _, _ in panels if np.isfinite(v).any()] or [1.0])
    im = None
    for p_i, (ax, (name, rlab, clab, v, lo, hi)) in enumerate(zip(axes.flat, panels)):
        cnt = counts[p_i] if counts is not None else None
        clear = (lo > 0) | (hi < 0)
        shown = np.where(clear, v, v * 0.35)  # an unclear cell is drawn pale
        im = ax.imshow(np.ma.masked_invalid(shown), cmap="RdBu", vmin=-vmax, vmax=vmax, aspect="auto")
        ax.set_xticks(range(len(clab)), clab)
        ax.set_yticks(range(len(rlab)), rlab)
        ax.set_xlabel(xlabel, fontsize=8)
        if ax in axes[:, 0]:
            ax.set_ylabel(ylabel, fontsize=8)
        ax.set_title(name, fontsize=9)
        for i in range(len(rlab)):
            for j in range(len(clab)):
                if np.isfinite(v[i, j]):
                    count = f"\nn={int(cnt[i, j]):,}" if cnt is not None and np.isfinite(cnt[i, j]) else ""
                    ax.text(j, i, f"{v[i, j]:+.1f}{'*' if clear[i, j] else ''}{count}", ha="center", va="center",
                            fontsize=6 if count else 7,
                            color="white" if abs(shown[i, j]) > 0.6 * vmax else "black")
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    if im is not None:
        fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.9).set_label(cbar, fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig
