"""Render report sections as one self-contained HTML file: inline CSS, PNG plots as data URIs, no network."""
from __future__ import annotations

import base64
import html
from datetime import datetime, timezone

import polars as pl

from simdom.report.data import Section
from simdom.stats.output import _num

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{border-bottom:2px solid #4c78a8}h2{margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:12px;margin:0.5em 0 1.5em;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}th{background:#f0f4f8}
td.s{text-align:left}caption{text-align:left;font-weight:bold;padding:4px 0}
figure{margin:1em 0}figcaption{font-size:13px;color:#555}img{max-width:100%}
nav li{margin:2px 0}.meta{color:#666;font-size:13px}
"""


def _anchor(title: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in title.lower())


def table_html(caption: str, df: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = []
    for rec in df.iter_rows():
        cells = "".join(f'<td class="s">{html.escape(str(v))}</td>' if isinstance(v, str) else f"<td>{_num(v, 5)}</td>"
                        for v in rec)
        body.append(f"<tr>{cells}</tr>")
    return (f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def render_html(sections: list[Section], title: str) -> str:
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class='meta'>Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC} by simdom report.</p>",
             "<nav><ol>" + "".join(f"<li><a href='#{_anchor(s.title)}'>{html.escape(s.title)}</a></li>"
                                   for s in sections) + "</ol></nav>"]
    for s in sections:
        parts.append(f"<section id='{_anchor(s.title)}'><h2>{html.escape(s.title)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in s.paragraphs]
        for f in s.figures:
            data = base64.b64encode(f.png).decode("ascii")
            parts.append(f"<figure><img alt='{html.escape(f.caption)}' src='data:image/png;base64,{data}'>"
                         f"<figcaption>{html.escape(f.caption)}</figcaption></figure>")
        parts += [table_html(c, df) for c, df in s.tables]
        parts.append("</section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
