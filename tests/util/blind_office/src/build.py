"""Rebuild a test folder's .doc/.rtf files and gold.json from FOLDER/src/docs.py (needs LibreOffice `soffice`).

usage: python build.py FOLDER [--verify]      e.g.  python src/build.py dev --verify
Writes the converted files and gold.json into FOLDER.
--verify converts every output back to text with LibreOffice and checks the gold against it.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import importlib.util
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fodt import Doc  # noqa: E402

OUT = os.path.abspath(sys.argv[1])
_spec = importlib.util.spec_from_file_location('docs', os.path.join(OUT, 'src', 'docs.py'))
_docs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_docs)
DOCS, NOTES = _docs.DOCS, _docs.NOTES
NONBMP = re.compile(r'[\U00010000-\U0010ffff]')
RARE = re.compile(r'[\u3400-\u4dbf]')
AMOUNT = re.compile(r'人民币[\d,]+(\.\d+)?元|\d+(\.\d+)?克|mg/100ml')
FW = re.compile(r'[０-９]')
LAT = re.compile(r'[A-Za-z]')
COMMON_ABSENT = ["PAGE", "NUMPAGES", "HYPERLINK", "MERGEFORMAT", "Text Body", "Header and Footer", "Table Contents",
                 "Footnote", "Heading", "Caption", "Normal", "Liberation Serif", "Liberation Sans", "Noto Sans CJK SC",
                 "DejaVu Sans", "Times New Roman", "_GB2312", "LibreOffice", "?", "\ufffd",
                 "\u0001", "\u0002", "\u0007", "\u0008", "\u000b", "\u0013", "\u0014", "\u0015"]
DOC_ABSENT = ["Root Entry", "WordDocument", "1Table", "MSWordDoc", "Word.Document.8", "Caolan80"]
RTF_ABSENT = ["\\", "{", "}", "rtf1", "fonttbl", "colortbl", "stylesheet", "fldinst", "fldrslt", "chftn", "listtext",
              "pgdsc", "Default Page Style", "generator", "，,", "：:", "；;", "（(", "）)", "、?"]
MACRO = '''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">
Sub SaveEnc(sIn As String, sOut As String, sPw As String)
  Dim a(0) As New com.sun.star.beans.PropertyValue
  a(0).Name = &quot;Hidden&quot; : a(0).Value = True
  oDoc = StarDesktop.loadComponentFromURL(ConvertToURL(sIn), &quot;_blank&quot;, 0, a())
  Dim b(1) As New com.sun.star.beans.PropertyValue
  b(0).Name = &quot;FilterName&quot; : b(0).Value = &quot;MS Word 97&quot;
  b(1).Name = &quot;Password&quot; : b(1).Value = sPw
  oDoc.storeToURL(ConvertToURL(sOut), b())
  oDoc.close(True)
End Sub
</script:module>
'''


def soffice(profile, *args):
    subprocess.run(['soffice', '-env:UserInstallation=file://' + profile, '--headless', *args],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)


def gold_for(name, kind, d):
    cands, contains, cells, alltext = [], [], [], []
    first_r = True
    for p in d.paras:
        if p['kind'] == 'table':
            cells += p['cells']
            alltext += p['cells']
            continue
        segs = p['plain']
        alltext += segs
        if 'fn' in p['feats']:          # reference mark may or may not be printed
            for s in segs:
                contains += [x for x in s.split('\x00FN\x00') if x]
            continue
        if p['kind'] == 'N':            # number comes from list formatting
            contains += segs
            continue
        for si, s in enumerate(segs):
            if '\t' in s:               # tab vs space both acceptable
                contains += [x for x in s.split('\t') if len(x) >= 2]
                continue
            if not s.strip():
                continue
            hard = (('runs' in p['feats'] and si == 0) or 'link' in p['feats'] or si > 0 or NONBMP.search(s)
                    or RARE.search(s) or FW.search(s) or ('pagebreak' in p['feats'] and si == 0))
            soft = AMOUNT.search(s) or LAT.search(s)
            ess = (p['kind'] == 'T' or (p['kind'] == 'R' and first_r) or (p['kind'] == 'R' and '〇' in s)
                   or ('\u3000' in s and not first_r))
            if p['kind'] == 'R':
                first_r = False
            cands.append((0 if ess else 1 if hard else 2 if soft else 3, s))
    chosen = set()
    for level in range(4):
        for i, (lv, s) in enumerate(cands):
            if lv == level and len(chosen) < 15:
                chosen.add(i)
        if len(chosen) >= 13:
            break
    lines = [cands[i][1] for i in sorted(chosen)]
    absent = COMMON_ABSENT + (DOC_ABSENT if kind == 'doc' else RTF_ABSENT) + sorted(d.fonts) + getattr(d, 'urls', [])
    full = '\n'.join(alltext + getattr(d, 'fntexts', []) + [d.header or '', d.footer or ''])
    absent = list(dict.fromkeys(absent))
    bad = [a for a in absent if a in full.replace('{PAGE}', '1').replace('{NUMPAGES}', '2')]
    assert not bad, (name, bad)
    assert 8 <= len(lines) <= 15, (name, len(lines))
    g = dict(file=name, kind=kind, lines=lines)
    if cells:
        g['cells'] = cells
    if contains:
        g['contains'] = contains
    g['absent'] = absent
    g['notes'] = NOTES[name]
    return g


def verify(gold, txtdir):
    ok = True
    for g in gold:
        if g['kind'] == 'unreadable':
            continue
        t = open(os.path.join(txtdir, g['file'].rsplit('.', 1)[0] + '.txt'), encoding='utf-8-sig').read()
        L = [x.rstrip() for x in t.replace('\r\n', '\n').split('\n')]
        j, errs = 0, []
        for want in g['lines']:
            while j < len(L) and L[j] != want:
                j += 1
            if j == len(L):
                errs.append('line ' + want[:30])
                j = 0
            else:
                j += 1
        errs += ['substr ' + c[:30] for c in g.get('cells', []) + g.get('contains', []) if c not in t]
        errs += ['absent %r' % a for a in g['absent'] if a in t]
        print(g['file'], 'OK' if not errs else errs)
        ok = ok and not errs
    return ok


def main():
    tmp = tempfile.mkdtemp(prefix='blind_office_')
    profile = os.path.join(tmp, 'profile')
    soffice(profile, '--terminate_after_init')
    basic = os.path.join(profile, 'user', 'basic', 'Standard')
    os.makedirs(basic, exist_ok=True)
    open(os.path.join(basic, 'Module1.xba'), 'w', encoding='utf-8').write(MACRO)
    gold = []
    for folder, fname, kw, text in DOCS:
        kw = dict(kw)
        password, why = kw.pop('password', None), kw.pop('why', None)
        kind = fname.rsplit('.', 1)[1]
        d = Doc(fname, kind, **kw)
        for line in text.split('\n'):
            d.add(line.replace('<br>', '\n').replace('<tab>', '\t'))
        base = fname.rsplit('.', 1)[0]
        src = os.path.join(tmp, base + '.fodt')
        open(src, 'w', encoding='utf-8').write(d.xml())
        dst = os.path.join(OUT, fname)
        if password:
            soffice(profile, 'macro:///Standard.Module1.SaveEnc("%s","%s","%s")' % (src, dst, password))
            gold.append(dict(file=fname, kind='unreadable', why=why))
        else:
            filt = 'doc:MS Word 97' if kind == 'doc' else 'rtf:Rich Text Format'
            soffice(profile, '--convert-to', filt, '--outdir', OUT, src)
            gold.append(gold_for(fname, kind, d))
        head = open(dst, 'rb').read(8)
        assert head.startswith(b'\xd0\xcf\x11\xe0' if kind == 'doc' else b'{\\rtf1'), fname
    with open(os.path.join(OUT, 'gold.json'), 'w', encoding='utf-8') as f:
        json.dump(gold, f, ensure_ascii=False, indent=1)
        f.write('\n')
    if '--verify' in sys.argv:
        txt = os.path.join(tmp, 'txt')
        files = [os.path.join(OUT, g['file']) for g in gold if g['kind'] != 'unreadable']
        soffice(profile, '--convert-to', 'txt:Text (encoded):UTF8', '--outdir', txt, *files)
        if not verify(gold, txt):
            sys.exit(1)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
