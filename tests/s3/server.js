// s3rver on 127.0.0.1, plain HTTP, a free port: the S3 REST API behind tests/s3/sigv4-proxy.
//   node tests/s3/server.js DATA_DIR BUCKET PORT_FILE
// Writes the port to PORT_FILE once it accepts connections; stop it with SIGTERM.
'use strict';
const fs = require('fs');
const path = require('path');
const s3rverDir = path.join(__dirname, 'node_modules', 's3rver');
// s3rver reads an object's file in fs streams' default 64 KiB chunks: a
// 100 MB GET was 1,500 reads and socket writes, 0.3 s of its CPU. Its files
// are read in 1 MiB chunks instead (the same bytes, ranges as asked).
const fse = require(require.resolve('fs-extra', { paths: [s3rverDir] }));
const openRead = fse.createReadStream;
fse.createReadStream = (file, options) =>
  openRead(file, Object.assign({ highWaterMark: 1 << 20 }, options));
const S3rver = require(s3rverDir);

const [dir, bucket, portFile] = process.argv.slice(2);
if (!dir || !bucket || !portFile) {
  console.error('usage: node server.js DATA_DIR BUCKET PORT_FILE');
  process.exit(2);
}
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: dir,
  configureBuckets: [{ name: bucket }],
});
server.run().then(({ port }) => {
  fs.writeFileSync(portFile + '.tmp', String(port));
  fs.renameSync(portFile + '.tmp', portFile);
});
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
