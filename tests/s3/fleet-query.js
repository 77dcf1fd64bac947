// A fleet question over the runs' summary.json manifests, answered by DuckDB
// (npm's @duckdb/node-api, pinned in tests/s3/package-lock.json): the runs
// that had an account change made from inside a sandbox in the week from
// SINCE, one run folder a line, for `sbxview runs --from`.
//   node tests/s3/fleet-query.js 'MANIFESTS_GLOB' SINCE     (SINCE: 2026-06-01)
'use strict';
const path = require('path');
const { DuckDBInstance } = require(path.join(__dirname, 'node_modules', '@duckdb', 'node-api'));

const [glob, since] = process.argv.slice(2);
if (!glob || !/^\d{4}-\d{2}-\d{2}$/.test(since || '')) {
  console.error('usage: node fleet-query.js MANIFESTS_GLOB YYYY-MM-DD');
  process.exit(2);
}
// The query docs/fleet.md shows (the glob and date as parameters).
const SQL = `
SELECT DISTINCT regexp_replace(filename, '/summary\\.json$', '') AS run
FROM read_json_auto($glob, filename = true, union_by_name = true)
WHERE CAST(run.start AS TIMESTAMP) >= CAST($since AS TIMESTAMP)
  AND CAST(run.start AS TIMESTAMP) < CAST($since AS TIMESTAMP) + INTERVAL 7 DAY
  AND len(list_filter(account.changes, c -> c.sandbox IS NOT NULL)) > 0
ORDER BY run`;

(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const reader = await conn.runAndReadAll(SQL, { glob, since });
  for (const row of reader.getRowObjects()) console.log(row.run);
})().catch(e => {
  console.error('fleet-query: ' + e.message);
  process.exit(1);
});
