# Writes the ORC input fixture source/file/testdata/orders.orc with pyarrow.orc (Apache ORC's C++
# writer): 1500 rows in 3 stripes, uncompressed (the codecs are tested in codec/orcfile).
#   $LAKELOAD_PY source/file/testdata/orders_orc.py source/file/testdata/orders.orc
# The values are a function of the row number i; TestORCInput checks every one.
import pyarrow as pa, pyarrow.orc as orc, datetime, decimal, sys
n=1500
ids=list(range(n))
t=pa.table({
 "id": pa.array(ids, pa.int32()),
 "big": pa.array([i*1000003 if i%7 else None for i in ids], pa.int64()),
 "name": pa.array([f"name-{i}" if i%5 else None for i in ids], pa.string()),
 "d": pa.array([i/8 for i in ids], pa.float64()),
 "ok": pa.array([i%2==0 for i in ids], pa.bool_()),
 "amt": pa.array([decimal.Decimal(i)/100 for i in ids], pa.decimal128(10,2)),
 "day": pa.array([datetime.date(2024,1,1)+datetime.timedelta(days=i%400) for i in ids], pa.date32()),
 "ts": pa.array([datetime.datetime(2024,3,1,12,0,0)+datetime.timedelta(seconds=i, microseconds=1000*(i%1000)) for i in ids], pa.timestamp("ms")),
 "tags": pa.array([[i, i+1] if i%3 else [] for i in ids], pa.list_(pa.int64())),
 "small": pa.array([i%100 for i in ids], pa.int16()),
})
orc.write_table(t, sys.argv[1], stripe_size=16384, batch_size=500, compression="uncompressed")
f=orc.ORCFile(sys.argv[1])
print(f.nstripes, f.nrows)
