/**
 * Checks an AWS Signature Version 4 the way the service does: it rebuilds the canonical request from
 * what arrived, derives the signing key from the secret it knows, and compares signatures. Written
 * from AWS's "Create a signed AWS API request" description, not with the signer the client uses.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface AwsTestCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** When set, requests must carry it as x-amz-security-token, signed. */
  readonly sessionToken?: string;
}

export interface SignedRequest {
  readonly method: string;
  /** The path as it arrived, percent-encoding kept. */
  readonly rawPath: string;
  readonly rawQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Why the request is refused (an AWS error type and its message), or undefined when it is signed right. */
export function sigV4Problem(
  request: SignedRequest,
  credentials: AwsTestCredentials,
  region: string,
  service: string
): { type: string; message: string } | undefined {
  const authorization = request.headers.authorization;
  if (!authorization)
    return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const match = AUTHORIZATION.exec(authorization);
  if (!match) return invalidSignature('Authorization header is not a SigV4 AWS4-HMAC-SHA256 header');
  const [, accessKey, date, scopeRegion, scopeService, signedHeaderList, signature] =
    match as unknown as string[];
  if (accessKey !== credentials.accessKeyId)
    return {
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.'
    };
  if (scopeRegion !== region || scopeService !== service)
    return invalidSignature(
      `Credential should be scoped to a valid region and service: ${region}/${service}`
    );
  const amzDate = request.headers['x-amz-date'] ?? '';
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== date)
    return invalidSignature('Date in Credential scope does not match X-Amz-Date');
  const signedHeaders = signedHeaderList!.split(';');
  for (const required of [
    'host',
    'x-amz-date',
    ...(credentials.sessionToken ? ['x-amz-security-token'] : [])
  ]) {
    if (!signedHeaders.includes(required)) return invalidSignature(`'${required}' must be a signed header`);
  }
  if (credentials.sessionToken && request.headers['x-amz-security-token'] !== credentials.sessionToken)
    return {
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.'
    };
  const bodyHash = sha256Hex(request.body);
  const declaredHash = request.headers['x-amz-content-sha256'];
  if (declaredHash !== undefined && declaredHash !== bodyHash)
    return invalidSignature('The provided x-amz-content-sha256 header does not match what was computed.');

  const canonicalRequest = [
    request.method,
    canonicalPath(request.rawPath),
    canonicalQuery(request.rawQuery),
    signedHeaders
      .map((name) => `${name}:${(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`)
      .join(''),
    signedHeaders.join(';'),
    declaredHash ?? bodyHash
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${credentials.secretAccessKey}`, date!);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = hmac(key, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(signature!, 'hex')))
    return invalidSignature(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret ' +
        'Access Key and signing method. Consult the service documentation for details.'
    );
  return undefined;
}

function invalidSignature(message: string) {
  return { type: 'InvalidSignatureException', message };
}

/** Every service but S3 encodes the (already encoded) path once more, segment by segment. */
function canonicalPath(rawPath: string): string {
  return rawPath
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    )
    .join('/');
}

function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  return rawQuery
    .split('&')
    .map((pair) => pair.split('=') as [string, string?])
    .map(([name, value]) => [name, value ?? ''] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}
