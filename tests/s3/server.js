// s3rver on 127.0.0.1, plain HTTP, a free port: the S3 REST API behind tests/s3/sigv4-proxy.
//   node tests/s3/server.js DATA_DIR BUCKET PORT_FILE
// Writes the port to PORT_FILE once it accepts connections; stop it with SIGTERM.
'use strict';
const fs = require('fs');
const path = require('path');
const S3rver = require(path.join(__dirname, 'node_modules', 's3rver'));

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
