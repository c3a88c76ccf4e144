/**
 * The Models API (`GET /v1/models`, `GET /v1/models/{model_id}`) as far as compact-agent reads it:
 * each catalogue row with its `capabilities.compaction` (SDK 1.12 BetaModelInfo /
 * BetaCompactionCapability: `{supported, summarize: {supported}}`) and context management.
 * Support per model: the compaction-thinking-blocks page's supportedModels (compaction.ts), and
 * the context-editing page's (read 2026-11-26: every 5.x row, Opus/Sonnet 4.5+, Haiku 4.5).
 * Other capability fields are left out: nothing here reads them.
 */
import { findModel } from '../../src/config/model-catalog.js';
import { ON_DEMAND_COMPACTION_MODELS } from './compaction.js';

export const MODELS_ROUTE = /^\/v1\/models(?:\/([^/]+))?$/;

const CONTEXT_EDITING_OLDER = new Set(['claude-haiku-4-5', 'claude-opus-4-5', 'claude-sonnet-4-5']);

export interface FakeModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
  max_input_tokens: number;
  max_tokens: number;
  capabilities: {
    compaction: { supported: boolean; summarize: { supported: boolean } };
    context_management: { supported: boolean };
  };
}

export function modelInfo(id: string): FakeModelInfo {
  const row = findModel(id);
  const compaction = ON_DEMAND_COMPACTION_MODELS.has(id);
  const contextEditing = CONTEXT_EDITING_OLDER.has(id) || /-(5|5-5|5-1|4-6|4-7|4-8)$/.test(id);
  return {
    type: 'model',
    id,
    display_name: row?.name ?? id,
    created_at: '2026-01-01T00:00:00Z',
    max_input_tokens: row?.contextWindow ?? 200_000,
    max_tokens: row?.maxOutputTokens ?? 64_000,
    capabilities: {
      compaction: { supported: compaction, summarize: { supported: compaction } },
      context_management: { supported: contextEditing }
    }
  };
}
