"""Tiny markup -> flat ODT (.fodt) generator + gold-line extraction."""
import re
from xml.sax.saxutils import escape as _esc


def esc(s):
    return _esc(s, {'"': '&quot;'})

TOKEN = re.compile(r'(\[\[.*?\]\]|\^\^.*?\^\^|\*\*|//|__|\{[^|{}]*\||\}|\n|\t)')

def parse_runs(s):
    """yield (kind, payload, props) ; kind in text, br, tab, link, fn"""
    b = i = u = False
    stack = []
    out = []
    for tok in TOKEN.split(s):
        if not tok:
            continue
        props = {}
        if b: props['b'] = 1
        if i: props['i'] = 1
        if u: props['u'] = 1
        for d in stack: props.update(d)
        if tok == '**': b = not b
        elif tok == '//': i = not i
        elif tok == '__': u = not u
        elif tok.startswith('{') and tok.endswith('|'):
            d = {}
            for kv in tok[1:-1].split(';'):
                k, _, v = kv.partition('=')
                d[k.strip()] = v.strip() or 1
            stack.append(d)
        elif tok == '}': stack.pop()
        elif tok == '\n': out.append(('br', None, props))
        elif tok == '\t': out.append(('tab', None, props))
        elif tok.startswith('[['):
            t, _, url = tok[2:-2].partition('|')
            out.append(('link', (t, url), props))
        elif tok.startswith('^^'):
            out.append(('fn', tok[2:-2], props))
        else:
            out.append(('text', tok, props))
    return out

class Doc:
    def __init__(self, name, kind, title_font='方正小标宋简体', body_font='仿宋_GB2312',
                 latin_font='Times New Roman', body_size=16, title_size=22,
                 header=None, footer=None, table_font=None, table_size=None):
        self.__dict__.update(locals()); del self.__dict__['self']
        self.tstyles = {}
        self.fonts = {title_font, body_font, latin_font, '宋体'}
        if table_font: self.fonts.add(table_font)
        self.body = []
        self.paras = []  # metadata for gold
        self.fn_count = 0

    def tstyle(self, props):
        key = tuple(sorted(props.items()))
        if not key: return None
        if key not in self.tstyles:
            self.tstyles[key] = 'T%d' % (len(self.tstyles) + 1)
            if 'font' in props: self.fonts.add(props['font'])
        return self.tstyles[key]

    def runs_xml(self, s):
        xml, plain, feats = [], [''], set()
        for kind, pay, props in parse_runs(s):
            if props: feats.add('runs')
            st = self.tstyle(props)
            def wrap(x):
                return '<text:span text:style-name="%s">%s</text:span>' % (st, x) if st else x
            if kind == 'text':
                xml.append(wrap(esc(pay))); plain[-1] += pay
            elif kind == 'br':
                xml.append('<text:line-break/>'); plain.append(''); feats.add('br')
            elif kind == 'tab':
                xml.append('<text:tab/>'); plain[-1] += '\t'; feats.add('tab')
            elif kind == 'link':
                t, url = pay
                xml.append('<text:a xlink:type="simple" xlink:href="%s">%s</text:a>' % (esc(url), wrap(esc(t))))
                plain[-1] += t; feats.add('link'); self.urls = getattr(self, 'urls', []) + [url]
            elif kind == 'fn':
                self.fn_count += 1
                n = self.fn_count
                xml.append('<text:note text:id="ftn%d" text:note-class="footnote"><text:note-citation>%d</text:note-citation>'
                           '<text:note-body><text:p text:style-name="Footnote">%s</text:p></text:note-body></text:note>' % (n, n, esc(pay)))
                plain[-1] += '\x00FN\x00'; feats.add('fn'); self.fntexts = getattr(self, 'fntexts', []) + [pay]
        return ''.join(xml), plain, feats

    def add(self, line):
        m = re.match(r'#([TCRLNP]) ', line)
        kind = m.group(1) if m else 'B'
        s = line[3:] if m else line
        if s.startswith('|'):
            return self.add_table(s)
        pstyle = {'T': 'PTitle', 'C': 'PCenter', 'R': 'PRight', 'L': 'PLeft', 'N': 'PList', 'P': 'PBodyPB', 'B': 'PBody'}[kind]
        x, plain, feats = self.runs_xml(s)
        if kind == 'N':
            feats.add('list')
            self.body.append('<text:list text:style-name="LNum"><text:list-item>'
                             '<text:p text:style-name="PList">%s</text:p></text:list-item></text:list>' % x)
        else:
            if kind == 'P': feats.add('pagebreak')
            self.body.append('<text:p text:style-name="%s">%s</text:p>' % (pstyle, x))
        self.paras.append(dict(kind=kind, plain=plain, feats=feats))

    def add_table(self, s):
        rows = [[c.strip() for c in r.strip().strip('|').split('|')] for r in s.split('||')]
        n = len(rows[0])
        self.tcount = getattr(self, 'tcount', 0) + 1
        out = ['<table:table table:name="Table%d" table:style-name="Tbl">' % self.tcount,
               '<table:table-column table:style-name="TblCol" table:number-columns-repeated="%d"/>' % n]
        cells = []
        for ri, r in enumerate(rows):
            out.append('<table:table-row>')
            for c in r:
                x, plain, feats = self.runs_xml(('**%s**' % c) if ri == 0 else c)
                out.append('<table:table-cell table:style-name="TblCell" office:value-type="string">'
                           '<text:p text:style-name="PCell">%s</text:p></table:table-cell>' % x)
                cells.append(plain[0])
            out.append('</table:table-row>')
        out.append('</table:table>')
        self.body.append(''.join(out))
        self.paras.append(dict(kind='table', cells=cells, rows=[[c for c in r] for r in rows], plain=[], feats={'table'}))

    def hf_xml(self, s):
        s = esc(s)
        s = s.replace('{PAGE}', '<text:page-number text:select-page="current">1</text:page-number>')
        s = s.replace('{NUMPAGES}', '<text:page-count>1</text:page-count>')
        return s

    def xml(self):
        # merge consecutive lists: simple approach, consecutive list blocks -> one list
        body = '\n'.join(self.body).replace('</text:list-item></text:list>\n<text:list text:style-name="LNum"><text:list-item>', '</text:list-item>\n<text:list-item>')
        fontdecl = ''.join('<style:font-face style:name="%s" svg:font-family="%s" style:font-family-generic="roman" style:font-pitch="variable"/>' % (esc(f), esc("'%s'" % f if ' ' in f else f)) for f in sorted(self.fonts))
        def tp(font=None, size=None, bold=False, italic=False, u=False, latin=None):
            a = []
            if font: a.append('style:font-name-asian="%s" style:font-name-complex="%s"' % (font, font))
            if latin: a.append('style:font-name="%s"' % latin)
            if size: a.append('fo:font-size="{0}pt" style:font-size-asian="{0}pt" style:font-size-complex="{0}pt"'.format(size))
            if bold: a.append('fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"')
            if italic: a.append('fo:font-style="italic" style:font-style-asian="italic" style:font-style-complex="italic"')
            if u: a.append('style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"')
            return '<style:text-properties %s/>' % ' '.join(a)
        ts = []
        for key, name in self.tstyles.items():
            p = dict(key)
            ts.append('<style:style style:name="%s" style:family="text">%s</style:style>' % (
                name, tp(font=p.get('font'), size=p.get('size'), bold='b' in p, italic='i' in p, u='u' in p,
                         latin=p.get('latin'))))
        tsz = self.table_size or (self.body_size - 4)
        hdr = ftr = ''
        if self.header:
            hdr = '<style:header><text:p text:style-name="Header">%s</text:p></style:header>' % self.hf_xml(self.header)
        if self.footer:
            ftr = '<style:footer><text:p text:style-name="Footer">%s</text:p></style:footer>' % self.hf_xml(self.footer)
        return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>{fontdecl}</office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph"><style:paragraph-properties style:tab-stop-distance="1.25cm"/><style:text-properties style:font-name="{self.latin_font}" style:font-name-asian="{self.body_font}" fo:font-size="{self.body_size}pt" style:font-size-asian="{self.body_size}pt" fo:language="en" fo:country="US" style:language-asian="zh" style:country-asian="CN"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph" style:class="text"/>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard" style:class="extra"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="9pt" style:font-size-asian="9pt" style:font-name-asian="宋体"/></style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard" style:class="extra"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="9pt" style:font-size-asian="9pt" style:font-name-asian="宋体"/></style:style>
<style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard" style:class="extra"><style:text-properties fo:font-size="9pt" style:font-size-asian="9pt" style:font-name-asian="宋体"/></style:style>
</office:styles>
<office:automatic-styles>
<style:style style:name="PTitle" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="center" fo:margin-bottom="0.4cm"/>{tp(self.title_font, self.title_size, bold=True)}</style:style>
<style:style style:name="PCenter" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="center"/>{tp(self.title_font, self.title_size - 4)}</style:style>
<style:style style:name="PRight" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="end"/></style:style>
<style:style style:name="PLeft" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="justify"/></style:style>
<style:style style:name="PBody" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="justify" fo:text-indent="2em" fo:line-height="150%"/></style:style>
<style:style style:name="PBodyPB" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="justify" fo:text-indent="2em" fo:break-before="page"/></style:style>
<style:style style:name="PList" style:family="paragraph" style:parent-style-name="Standard" style:list-style-name="LNum"/>
<style:style style:name="PCell" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="center"/>{tp(self.table_font, tsz)}</style:style>
<style:style style:name="Tbl" style:family="table"><style:table-properties style:width="15.5cm" table:align="center"/></style:style>
<style:style style:name="TblCol" style:family="table-column"/>
<style:style style:name="TblCell" style:family="table-cell"><style:table-cell-properties fo:padding="0.1cm" fo:border="0.5pt solid #000000"/></style:style>
{''.join(ts)}
<text:list-style style:name="LNum"><text:list-level-style-number text:level="1" style:num-prefix="（" style:num-suffix="）" style:num-format="1"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="2.2cm" fo:text-indent="-1.1cm" fo:margin-left="2.2cm"/></style:list-level-properties></text:list-level-style-number></text:list-style>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2.5cm" fo:margin-bottom="2.5cm" fo:margin-left="2.8cm" fo:margin-right="2.6cm"/><style:header-style/><style:footer-style/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">{hdr}{ftr}</style:master-page></office:master-styles>
<office:body><office:text>
{body}
</office:text></office:body></office:document>
'''
