# honest: py_unicode_out
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# evidence: prints non-ASCII text (accents, CJK, emoji, RTL) to stdout and stderr under the clean environment, and round-trips it through a UTF-8 file; the runner finds the exact UTF-8 bytes
# ok-if: out_has "unicode-ok ünïcødé ✓ 日本語 🎉 שלום" && grep -aqF "stderr: ñ €" "$ERR" && [ "$(cat "$CWD/u.txt")" = "Grüße, 世界" ]
import sys
s = "ünïcødé ✓ 日本語 🎉 שלום"
with open("u.txt", "w", encoding="utf-8") as f:
    f.write("Grüße, 世界")
assert open("u.txt", encoding="utf-8").read() == "Grüße, 世界"
print("unicode-ok", s)
print("stderr: ñ €", file=sys.stderr)
print("encoding", sys.stdout.encoding, file=sys.stderr)
