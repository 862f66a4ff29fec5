/**
 * The transport details of the API client (core/http.ts): how a failed request's network problem
 * is named, how answer headers are flattened, and how a content coding is undone (a server may
 * gzip JSON when the request has no Accept-Encoding, RFC 9110 §12.5.3).
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

function codeOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
  }
  return (err as { code?: string })?.code;
}

/** Names the network problem of a failed request in words. */
export function networkProblem(err: unknown, host: string): string {
  const code = codeOf(err);
  const msg = (err as Error)?.message ?? String(err);
  switch (code) {
    case 'ECONNRESET':
      return 'connection reset by the target (ECONNRESET) before a complete answer';
    case 'EPIPE':
      return 'connection closed by the target while the request was being sent (EPIPE)';
    case 'ECONNREFUSED':
      return `connection refused: nothing listens at ${host} (ECONNREFUSED)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found: ${host} (${code})`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect to ${host} within 10 s (${code})`;
    case 'UND_ERR_HEADERS_OVERFLOW':
      return "the answer's headers are too large";
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'the body does not match its Content-Length';
    default:
      if (code?.startsWith('HPE_')) return `not a valid HTTP answer (${code}: ${msg})`;
      if (/other side closed|socket hang up|closed/i.test(msg)) return `connection closed by the target before a complete answer (${msg})`;
      if (/certificate|SSL|TLS/i.test(msg)) return `TLS failure: ${msg}`;
      return code ? `${msg} (${code})` : msg;
  }
}

export const isJsonType = (type: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim());

/** Lower-case names, one string per header (repeated headers joined by ", "; Set-Cookie by newlines). */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(k.toLowerCase() === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

/** Undoes a Content-Encoding (the client asks for none, a server may send one anyway), within the size bound. */
export function decode(bytes: Buffer, encoding: string | undefined, maxBytes: number, fail: (problem: string) => never): Buffer {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (!enc || enc === 'identity' || !bytes.length) return bytes;
  const options = { maxOutputLength: maxBytes };
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(bytes, options);
    if (enc === 'deflate') return inflateSync(bytes, options);
    if (enc === 'br') return brotliDecompressSync(bytes, options);
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      fail(`body larger than ${maxBytes} bytes once decompressed (Content-Encoding: ${enc}; CRM_MAX_RESPONSE_BYTES)`);
    fail(`body cannot be decoded with its Content-Encoding ${enc} (${(e as Error).message})`);
  }
  return bytes;
}
