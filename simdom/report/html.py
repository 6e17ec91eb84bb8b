"""Render report sections as one self-contained HTML file: inline CSS, PNG plots as data URIs, no
scripts, no network. Readable at 1280 px without horizontal scrolling; prints on A4 with nothing cut
(tables shrink and wrap, figures scale to the page and are not split)."""
from __future__ import annotations

import base64
import html
from datetime import datetime, timezone

from simdom import present as P
from simdom.report.data import Section

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1100px;color:#222;
padding:0 1em;line-height:1.4}
h1{border-bottom:2px solid #4c78a8;font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}
p.answer{font-size:1.05em}
.tw{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;font-size:12px;margin:0.4em 0 1.4em}
th,td{border-bottom:1px solid #e3e3e3;padding:3px 8px;white-space:nowrap;text-align:left}
th{background:#f0f4f8}td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:bold;padding:4px 0}
figure{margin:1em 0}figcaption{font-size:13px;color:#555}img{max-width:100%;height:auto}
.notes{font-size:12px;color:#666}nav li{margin:2px 0}.meta{color:#666;font-size:13px}
@page{size:A4;margin:12mm}
@media print{
 body{margin:0;max-width:none;padding:0;font-size:10pt}
 .tw{overflow:visible}
 table{font-size:7.5pt;width:100%;table-layout:auto}
 th,td{white-space:normal;padding:1px 3px;overflow-wrap:anywhere}
 figure,table,tr{break-inside:avoid}
 h2{break-after:avoid}
 img{max-width:100%}
}
"""


def _anchor(title: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in title.lower())


def table_html(t: P.Table) -> str:
    head = "".join(f"<th class='{'r' if c.right else 'l'}'>{html.escape(c.title)}</th>" for c in t.cols)
    body = "".join("<tr>" + "".join(f"<td class='{'r' if c.right else 'l'}'>{html.escape(v)}</td>"
                                    for c, v in zip(t.cols, row)) + "</tr>" for row in t.cells())
    return (f"<div class='tw'><table><caption>{html.escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>")


def render_html(sections: list[Section], title: str, by: str = "simdom report") -> str:
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>",
             f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class='meta'>Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC} by {html.escape(by)}.</p>",
             "<nav><ol>" + "".join(f"<li><a href='#{_anchor(s.title)}'>{html.escape(s.title)}</a></li>"
                                   for s in sections) + "</ol></nav>"]
    for s in sections:
        parts.append(f"<section id='{_anchor(s.title)}'><h2>{html.escape(s.title)}</h2>")
        parts += [f"<p class='answer'>{html.escape(p)}</p>" for p in s.paragraphs]
        for f in s.figures:
            data = base64.b64encode(f.png).decode("ascii")
            parts.append(f"<figure><img alt='{html.escape(f.caption)}' src='data:image/png;base64,{data}'>"
                         f"<figcaption>{html.escape(f.caption)}</figcaption></figure>")
        parts += [table_html(t) for t in s.tables]
        # simdom's own SVG drawings (simdom/board.py: escaped text, no script), inline
        parts += [f"<figure class='drawing'>{svg}<figcaption>{html.escape(cap)}</figcaption></figure>"
                  for svg, cap in s.drawings]
        if s.notes:
            parts.append("<div class='notes'>" + "".join(f"<p>{html.escape(n)}</p>" for n in s.notes) + "</div>")
        parts.append("</section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
