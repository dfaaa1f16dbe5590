import { decodeBuffer } from 'encoding-sniffer';

/**
 * A fetched body's bytes as text, in the charset the answer declares (docs/decisions/sources.md,
 * "Charsets"): a byte order mark first, then the `Content-Type` header's charset, then, for
 * documents other than JSON, the XML declaration's `encoding` or an HTML `<meta charset>` in
 * the first 1024 bytes (the WHATWG sniffing algorithm, encoding-sniffer). Labels are the WHATWG
 * Encoding Standard's, so ISO-8859-1 reads as Windows-1252, as browsers read it. Without any
 * declaration the bytes are UTF-8, as nearly every feed, page and API sends them.
 */
export function decodedText(bytes: Buffer, contentType: string | undefined): string {
  const declared = charsetOf(contentType);
  if (/json/i.test(contentType ?? '')) {
    // JSON is UTF-8 (RFC 8259); a header that says otherwise is honoured, never a sniffed page's meta.
    return decodeBuffer(bytes, { defaultEncoding: 'utf-8', userEncoding: declared ?? 'utf-8' });
  }
  return decodeBuffer(bytes, {
    defaultEncoding: 'utf-8',
    ...(declared ? { transportLayerEncodingLabel: declared } : {}),
  });
}

/** The `charset` parameter of a `Content-Type` value, unquoted, or undefined. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType ?? '');
  const label = (match?.[1] ?? match?.[2])?.trim();
  return label || undefined;
}
