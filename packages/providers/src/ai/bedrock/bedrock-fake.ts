import { createHash, createHmac } from 'node:crypto';
import { type AiKindFakeControls, aiKindFakeScript } from '../../testing/ai-kind-fake.js';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';

export interface BedrockFakeOptions {
  /** The only access key the fake knows, and its secret: requests must be SigV4-signed with them. */
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Foundation models `GET /foundation-models` lists (on demand); ids containing `embed` are embedding models. */
  models: readonly string[];
}

export interface BedrockFake {
  url: string;
  server: FakeHttpServer;
  controls: AiKindFakeControls;
}

/**
 * AWS Bedrock (runtime and control plane on one host) for the AI kind contract: ListFoundationModels,
 * ListInferenceProfiles, Converse and Titan-style InvokeModel embeddings in Bedrock's wire shapes.
 * Every request must carry a SigV4 signature the fake recomputes independently from the known secret;
 * a wrong secret is refused as AWS does (403 InvalidSignatureException).
 */
export async function startBedrockFake(options: BedrockFakeOptions): Promise<BedrockFake> {
  const server = await startFakeHttpServer();
  const script = aiKindFakeScript(server, {
    accepted: (request) => signatureProblem(request, options) === undefined,
    refused: (request) =>
      awsError(403, signatureProblem(request, options) ?? 'UnrecognizedClientException', {
        UnrecognizedClientException: 'The security token included in the request is invalid.',
        InvalidSignatureException:
          'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      }),
  });

  script.onGuarded('GET', '/foundation-models', () => ({
    json: {
      modelSummaries: options.models.map((id) => ({
        modelArn: `arn:aws:bedrock:${options.region}::foundation-model/${id}`,
        modelId: id,
        modelName: id,
        providerName: 'Fake',
        inputModalities: ['TEXT'],
        outputModalities: [/embed/i.test(id) ? 'EMBEDDING' : 'TEXT'],
        inferenceTypesSupported: ['ON_DEMAND'],
        modelLifecycle: { status: 'ACTIVE' },
      })),
    },
  }));
  script.onGuarded('GET', '/inference-profiles', () => ({ json: { inferenceProfileSummaries: [] } }));
  script.onGuarded('POST', '/model/:modelId/converse', () => {
    const chat = script.takeChat();
    if (chat.kind === 'tooLong') {
      return awsError(400, 'ValidationException', {
        ValidationException: 'The model returned the following errors: Input is too long for requested model.',
      });
    }
    const { text, inputTokens, outputTokens } = chat.answer;
    return {
      json: {
        output: { message: { role: 'assistant', content: [{ text }] } },
        stopReason: 'end_turn',
        usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
        metrics: { latencyMs: 12 },
      },
    };
  });
  script.onGuarded('POST', '/model/:modelId/invoke', (request) => {
    const text = String((request.json as { inputText?: unknown } | undefined)?.inputText ?? '');
    return {
      headers: { 'x-amzn-bedrock-input-token-count': String(Math.max(1, Math.ceil(text.length / 4))) },
      json: { embedding: script.takeVector(), inputTextTokenCount: Math.max(1, Math.ceil(text.length / 4)) },
    };
  });

  return { url: server.url, server, controls: script.controls };
}

function awsError(status: number, type: string, messages: Record<string, string>): FakeReply {
  return {
    status,
    headers: { 'x-amzn-ErrorType': `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/` },
    json: { message: messages[type] ?? type },
  };
}

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const awsEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Why the request's SigV4 signature is not acceptable, as AWS names it; undefined when it is valid.
 * Written from AWS's description of the algorithm, apart from the adapter's signer.
 */
function signatureProblem(request: FakeRequest, options: BedrockFakeOptions): string | undefined {
  const header = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return 'MissingAuthenticationTokenException';
  const [, accessKeyId, day, region, service, signedHeaders = '', signature] = match;
  if (accessKeyId !== options.accessKeyId) return 'UnrecognizedClientException';
  if (region !== options.region || service !== 'bedrock') return 'InvalidSignatureException';
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(day ?? '-')) return 'IncompleteSignatureException';
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'IncompleteSignatureException';
  // The path as sent: each segment encoded once by the client, encoded again for signing.
  const path = request.path
    .split('/')
    .map((segment) => awsEncode(awsEncode(segment)))
    .join('/');
  const query = [...request.query]
    .map(([k, v]) => `${awsEncode(k)}=${awsEncode(v)}`)
    .sort()
    .join('&');
  const canonicalHeaders = names
    .map((name) => {
      const value = request.headers[name];
      return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [request.method, path, query, canonicalHeaders, signedHeaders, sha256Hex(request.text)].join(
    '\n',
  );
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, day ?? ''), region ?? ''), service ?? ''),
    'aws4_request',
  );
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return expected === signature ? undefined : 'InvalidSignatureException';
}
