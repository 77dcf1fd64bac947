// A small S3-compatible store over TLS on 127.0.0.1 that offers HTTP/2 (ALPN
// h2, HTTP/1.1 too), for tests/s3/h2-e2e: one bucket of the files of a folder,
// a ListObjectsV2 answer of them and GETs of each (ETag: the MD5), every
// request's protocol logged. With --h1 it offers HTTP/1.1 only.
//   node tests/s3/h2-server.js CERT KEY BUCKET DIR LOG PORT_FILE [--h1]
// Node's own http2 and https modules; stop it with SIGTERM.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const http2 = require('http2');
const https = require('https');
const path = require('path');

const [certFile, keyFile, bucket, dir, logFile, portFile, mode] = process.argv.slice(2);
if (!portFile) {
  console.error('usage: node h2-server.js CERT KEY BUCKET DIR LOG PORT_FILE [--h1]');
  process.exit(2);
}
const objects = fs.readdirSync(dir).sort().map((name) => {
  const body = fs.readFileSync(path.join(dir, name));
  return { key: 'run/' + name, body, etag: '"' + crypto.createHash('md5').update(body).digest('hex') + '"' };
});
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function listing(prefix) {
  const rows = objects.filter((o) => o.key.startsWith(prefix)).map((o) =>
    `<Contents><Key>${esc(o.key)}</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified>` +
    `<ETag>${esc(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`);
  return '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    `<Name>${bucket}</Name><Prefix>${esc(prefix)}</Prefix><KeyCount>${rows.length}</KeyCount>` +
    `<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${rows.join('')}</ListBucketResult>`;
}

function handle(req, res) {
  const url = new URL(req.url, 'https://127.0.0.1');
  fs.appendFileSync(logFile, JSON.stringify({ method: req.method, path: url.pathname,
    protocol: req.httpVersion, signed: /^AWS4-HMAC-SHA256 /.test(req.headers.authorization || '') }) + '\n');
  const parts = url.pathname.split('/').slice(1);
  const key = decodeURIComponent(parts.slice(1).join('/'));
  if (parts[0] === bucket && key === '' && url.searchParams.get('list-type') === '2') {
    res.writeHead(200, { 'content-type': 'application/xml' });
    return res.end(listing(url.searchParams.get('prefix') || ''));
  }
  const o = parts[0] === bucket && objects.find((x) => x.key === key);
  if (o && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', etag: o.etag,
      'content-length': String(o.body.length) });
    return res.end(o.body);
  }
  res.writeHead(404, { 'content-type': 'application/xml' });
  res.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>' +
    '<Message>The specified key does not exist.</Message></Error>');
}

const tls = { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) };
const server = mode === '--h1' ? https.createServer(tls, handle)
  : http2.createSecureServer({ ...tls, allowHTTP1: true }, handle);
server.listen(0, '127.0.0.1', () => {
  fs.writeFileSync(portFile + '.tmp', String(server.address().port));
  fs.renameSync(portFile + '.tmp', portFile);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
