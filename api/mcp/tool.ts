import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../../src/services/api-keys';
import type { JsonText } from '../route';

/**
 * One assistant tool: the REST operation it mirrors (`twin`, an OpenAPI operationId), its
 * input schema and what it runs on the caller's account. The permission it needs is the
 * twin's, looked up from the REST routes, so the two can never disagree.
 */
export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  twin: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run(caller: Caller, input: z.output<S>, call: ToolCall): Promise<ToolOutput> | ToolOutput;
}

/** The call in progress: `signal` aborts when the assistant cancels it or disconnects, so slow lookups stop too. */
export interface ToolCall {
  signal: AbortSignal;
}

/** What a tool answers: a JSON object, or `JsonText` the service already serialised (stored lead payloads). */
export type ToolOutput = object | JsonText;

export type AnyToolDef = ToolDef<z.ZodObject>;

/** Keeps each tool's schema and handler typed together, as `defineRoute` does for REST. */
export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): AnyToolDef {
  return def as unknown as AnyToolDef;
}

export const READS: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const CHANGES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
