# honest: py_unicode
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: a submission prints non-ASCII text under the locale the sandbox gives (LANG=C.UTF-8): setlocale(LC_ALL, ""), UTF-8 stdout, casefold/normalize/unicodedata, sorting with locale.strxfrm, and writes the same text to a UTF-8 file in CWD
# ok-if: out_has "unicode-ok Grüße, 日本語 ✓ → STRASSE é=é 3" && grep -qx "Grüße, 日本語 ✓" "$CWD/unicode.txt"
import locale
import sys
import unicodedata

locale.setlocale(locale.LC_ALL, "")
assert sys.stdout.encoding.lower().replace("-", "") == "utf8", sys.stdout.encoding
s = "Grüße, 日本語 ✓"
e1, e2 = "\u00e9", "e\u0301"
same = unicodedata.normalize("NFC", e2) == e1
words = sorted(["zebra", "Äpfel", "apple"], key=locale.strxfrm)
with open("unicode.txt", "w", encoding="utf-8") as f:
    f.write(s + "\n")
print("unicode-ok", s, "→", "straße".upper(), f"{e1}={unicodedata.normalize('NFC', e2)}" if same else "nfc-bad",
      len(words), unicodedata.name("✓"))
