"""Report figures (matplotlib, Agg backend) returned as PNG bytes. Every figure has a title,
labelled axes, and error bars or bands (95% intervals) wherever the values are estimates."""
from __future__ import annotations

import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return buf.getvalue()


def _yerr(est, lo, hi) -> np.ndarray:
    est, lo, hi = (np.asarray(v, float) for v in (est, lo, hi))
    return np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)])


def bars(labels: Sequence[str], est, lo, hi, *, title: str, xlabel: str, ylabel: str,
         ref: float | None = None, ref_label: str | None = None) -> bytes:
    """Bars with 95% error bars, and an optional horizontal reference line (e.g. a fair share)."""
    fig, ax = plt.subplots(figsize=(max(5, 0.6 * len(labels) + 2), 3.6))
    x = np.arange(len(labels))
    ax.bar(x, est, yerr=_yerr(est, lo, hi), capsize=4, color="#4c78a8", ecolor="black")
    if ref is not None:
        ax.axhline(ref, color="#e45756", linestyle="--", label=ref_label)
        ax.legend(loc="best", fontsize=8)
    ax.set_xticks(x, labels, rotation=30 if max(map(len, labels), default=0) > 8 else 0, ha="right"
                  if max(map(len, labels), default=0) > 8 else "center", fontsize=8)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    return _png(fig)


def lines(series: dict[str, tuple], *, title: str, xlabel: str, ylabel: str) -> bytes:
    """One line per series ``name -> (x, est, lo, hi)``, with a shaded 95% band."""
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for name, (x, est, lo, hi) in series.items():
        line, = ax.plot(x, est, marker="o", markersize=3, label=name)
        ax.fill_between(x, lo, hi, alpha=0.25, color=line.get_color())
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _png(fig)


def errorbar_points(x_labels: Sequence[str], series: dict[str, tuple], *, title: str, xlabel: str,
                    ylabel: str, ref: float | None = None) -> bytes:
    """Points with 95% error bars per category, one marker style per series ``name -> (est, lo, hi)``."""
    fig, ax = plt.subplots(figsize=(max(5, 0.7 * len(x_labels) + 2), 3.8))
    n = max(len(series), 1)
    for i, (name, (est, lo, hi)) in enumerate(series.items()):
        x = np.arange(len(x_labels)) + (i - (n - 1) / 2) * 0.15
        ax.errorbar(x, est, yerr=_yerr(est, lo, hi), fmt="o", capsize=4, label=name)
    if ref is not None:
        ax.axhline(ref, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(np.arange(len(x_labels)), x_labels, fontsize=8)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _png(fig)


def histogram(dists: dict[str, tuple], *, title: str, xlabel: str, ylabel: str) -> bytes:
    """Step histograms ``name -> (values, share, lo, hi)`` with a 95% band per bin."""
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for name, (v, share, lo, hi) in dists.items():
        line, = ax.step(v, share, where="mid", label=name)
        ax.fill_between(v, lo, hi, step="mid", alpha=0.25, color=line.get_color())
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(fontsize=8)
    return _png(fig)
