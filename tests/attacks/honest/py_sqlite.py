# honest: py_sqlite
# flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
# variant: landlock | --no-fork --no-network --clean-env --cpu 5 --mem 256 --landlock | landlock
# evidence: a database-course submission creates CWD/shop.db with sqlite3 (journal file, fcntl locks, fsync), inserts 10000 rows in a transaction, runs a GROUP BY and an index lookup; the runner checks the file is an SQLite database and the printed totals
# ok-if: out_has "sqlite-ok 10000 [(0, 12495000), (1, 12497500), (2, 12500000), (3, 12502500)] 4242" && [ "$(head -c 15 "$CWD/shop.db")" = "SQLite format 3" ]
import sqlite3

db = sqlite3.connect("shop.db")
db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, amount INTEGER)")
db.execute("CREATE INDEX by_customer ON orders (customer)")
with db:
    db.executemany("INSERT INTO orders VALUES (?, ?, ?)", ((i, i % 4, i) for i in range(10000)))
n = db.execute("SELECT COUNT(*) FROM orders").fetchone()[0]
groups = db.execute("SELECT customer, SUM(amount) FROM orders GROUP BY customer ORDER BY customer").fetchall()
one = db.execute("SELECT amount FROM orders WHERE customer = 2 AND id = 4242").fetchone()[0]
db.close()
print("sqlite-ok", n, groups, one)
