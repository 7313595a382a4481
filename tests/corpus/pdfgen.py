"""Write a text-layer PDF of a Chinese document (test fixture), wrapping paragraphs at the page width."""

from __future__ import annotations

from pathlib import Path

CHARS_PER_LINE = 34


def write_text_pdf(text: str, path: Path) -> Path:
    """Render ``text`` with reportlab's built-in STSong-Light CID font, one paragraph per wrapped block."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4)
    _, height = A4
    y = height - 60
    for paragraph in text.splitlines():
        if not paragraph.strip():
            continue
        chunks = [paragraph[i:i + CHARS_PER_LINE] for i in range(0, len(paragraph), CHARS_PER_LINE)]
        for chunk in chunks:
            if y < 60:
                c.showPage()
                y = height - 60
            c.setFont("STSong-Light", 12)
            c.drawString(50, y, chunk)
            y -= 18
        y -= 6
    c.save()
    return path
