import { type DiscoveredModel, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readObject, readString } from '../../utils/index.js';
import { isNonTextModel, operationKindsFromId } from '../shared/discovery.js';
import type { OpenAiWireTarget } from './openai-wire-target.js';

/** `GET …/models` → `{data: [{id, …}]}`; the list carries no capabilities, so kinds are inferred from ids. */
export async function listOpenAiModels(
  target: OpenAiWireTarget,
  url = target.url('models', ''),
): Promise<DiscoveredModel[]> {
  const response = await target.transport.request<unknown>({
    url,
    query: target.query(),
    headers: await target.headers(),
  });
  const data = readObject(response.data)?.data;
  if (!Array.isArray(data)) {
    throw MarginError.provider('invalidResponse', `${target.provider} answered the model list in an unexpected shape.`);
  }
  return readArray(data)
    .map((item) => readObject(item))
    .filter((entry): entry is JsonObject => entry !== undefined)
    .map((entry) => readString(entry.id) ?? '')
    .filter((id) => id !== '' && !isNonTextModel(id))
    .map((id) => ({ remoteModelId: id, operationKinds: operationKindsFromId(id) }));
}
