// An h2c server (HTTP/2 with prior knowledge) on Node's own node:http2, with the routes and the content of
// the pooledh2 example server, so the example client can be checked against a server that is not Netty:
//   GET  /hello            1024 bytes: the lines "Hello from pooledh2 <n>\n", n = 0, 1, ... cut at 1024
//   POST /echo             the request body back, then the request's trailers as the response's trailers
//   GET  /download?size=N  N bytes, byte i = top byte of (i * 0x9E3779B1) mod 2^32
// Every route copies the request headers named x-echo-* into its response headers.
//
// Usage: node h2c-server.mjs [port] [max-seconds]
//   port 0 (default) picks a free port; prints "listening <port>" once ready. Listens on 127.0.0.1 only.
//   Exits when its standard input closes (the process that started it is gone) or after max-seconds (default 120).

import http2 from 'node:http2';

const port = Number(process.argv[2] ?? 0);
const maxSeconds = Number(process.argv[3] ?? 120);
const FRAME = 16384;

const HELLO = (() => {
  let text = '';
  for (let line = 0; text.length < 1024; line++) {
    text += `Hello from pooledh2 ${line}\n`;
  }
  return Buffer.from(text.slice(0, 1024), 'ascii');
})();

function downloadChunk(offset, length) {
  const chunk = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) {
    chunk[i] = Math.imul(offset + i, 0x9E3779B1) >>> 24;
  }
  return chunk;
}

function echoedHeaders(headers) {
  const echoed = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('x-echo-')) {
      echoed[name] = value;
    }
  }
  return echoed;
}

function answer(stream, status, text) {
  stream.respond({ ':status': status, 'content-type': 'text/plain' });
  stream.end(text + '\n');
}

function echo(stream, headers) {
  // The body is gathered first: whether the response ends with trailers is known only at the request's end.
  const chunks = [];
  let trailers = null;
  stream.on('data', (chunk) => chunks.push(chunk));
  stream.on('trailers', (received) => { trailers = received; });
  stream.on('end', () => {
    const response = { ':status': 200, 'content-type': 'application/octet-stream', ...echoedHeaders(headers) };
    if (trailers === null) {
      stream.respond(response);
      stream.end(Buffer.concat(chunks));
      return;
    }
    stream.respond(response, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    stream.end(Buffer.concat(chunks));
  });
}

function download(stream, headers, size) {
  stream.respond({ ':status': 200, 'content-type': 'application/octet-stream', 'content-length': String(size),
    ...echoedHeaders(headers) });
  let offset = 0;
  const writeMore = () => {
    while (offset < size) {
      const length = Math.min(FRAME, size - offset);
      const more = stream.write(downloadChunk(offset, length));
      offset += length;
      if (!more) {
        stream.once('drain', writeMore);
        return;
      }
    }
    stream.end();
  };
  writeMore();
}

const server = http2.createServer();
server.on('stream', (stream, headers) => {
  stream.on('error', () => {});
  const method = headers[':method'];
  const url = new URL(headers[':path'], 'http://localhost');
  if (url.pathname === '/echo' && method === 'POST') {
    echo(stream, headers);
    return;
  }
  // Read (and drop) the request body of the other routes. Node closes a server stream whose request was never
  // read with RST_STREAM(NO_ERROR) as soon as its response is handed over, which can cut DATA frames still
  // waiting for flow-control window; reading the request lets the stream end normally.
  stream.resume();
  if (url.pathname === '/hello' && method === 'GET') {
    stream.respond({ ':status': 200, 'content-type': 'text/plain; charset=us-ascii',
      'content-length': String(HELLO.length), ...echoedHeaders(headers) });
    stream.end(HELLO);
  } else if (url.pathname === '/download' && method === 'GET') {
    const size = Number(url.searchParams.get('size'));
    if (!Number.isSafeInteger(size) || size < 0) {
      answer(stream, 400, '/download needs size=N, N >= 0');
    } else {
      download(stream, headers, size);
    }
  } else {
    answer(stream, 404, `no route for ${url.pathname}`);
  }
});

server.listen(port, '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});

process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), maxSeconds * 1000).unref();
