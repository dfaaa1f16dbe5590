import type { Services } from '../../../src/services';
import { validationError, fieldProblemsOf } from '../../../src/errors';
import { SIGNAL_TYPES, signalType } from '../../../src/signal-types/registry';
import { createBodyOf, previewSignalBody, updateSignalBody } from '../../schemas/signals';
import { createOperationIdOf, previewSignal } from '../../routes/signals';
import { CHANGES, READS, defineTool } from '../tool';
import { LEAD_PRICES, createSignalInput, listSignalsInput, signalRef } from './inputs';

export const listSignalsTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'list_signals',
    twin: 'listSignals',
    description:
      'Lists the account’s signals, newest first, with status, leadsToday and leadsTotal; filter by status or signalTypeId. Paged by limit (1-100, default 25) and offset. Free.',
    input: listSignalsInput,
    annotations: READS,
    run: (caller, query) => signals.list(caller, query),
  });

export const getSignalTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'get_signal',
    twin: 'getSignal',
    description:
      'Reads one signal: config, status, daily cap, lead counts, settings applied differently (`applied`) and warnings. Free.',
    input: signalRef,
    annotations: READS,
    run: (caller, { signalId }) => signals.get(caller.accountId, signalId),
  });

export const createSignalTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'create_signal',
    // Every type's create route needs the same permission; the first stands for them all.
    twin: createOperationIdOf(SIGNAL_TYPES[0]!),
    description:
      'Creates a signal: a saved search that produces leads. Give signalTypeId and the same body as the REST create of that type ' +
      '(name, config, optional dailyLeadLimit, duplicateHandling, webhookUrl, status). status defaults to draft, which produces nothing; ' +
      `active starts producing and needs credits. ${LEAD_PRICES}`,
    input: createSignalInput,
    annotations: CHANGES,
    run: (caller, { signalTypeId, ...body }) => {
      const parsed = createBodyOf(signalType(signalTypeId)).safeParse(body);
      // The same answer as a REST create with this body: 422 VALIDATION_ERROR naming each field.
      if (!parsed.success) throw validationError(fieldProblemsOf(parsed.error));
      return signals.create(caller, signalTypeId, parsed.data);
    },
  });

export const previewSignalTool = ({ signalPreviews }: Pick<Services, 'signalPreviews'>) =>
  defineTool({
    name: 'preview_signal',
    twin: 'previewSignal',
    description:
      'Previews a signal before creating it: give signalTypeId and the body create_signal would take (name optional). ' +
      'Answers over the last 30 days of stored events: matchingEvents, expectedLeads, expectedLeadsPerDay, ' +
      'expectedCreditsPerDay (lead prices, email price where getEmails), capLimited, the funnel and warnings. ' +
      'Nothing is created, produced or charged. Free.',
    input: previewSignalBody.extend({ config: createSignalInput.shape.config }),
    annotations: READS,
    run: (caller, body) => previewSignal({ signalPreviews }, caller, body),
  });

export const updateSignalTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'update_signal',
    twin: 'updateSignal',
    description:
      'Changes a signal: name, status, config (merged: send only changed fields; an empty list clears a list; null removes a field), ' +
      `webhookUrl, destinations, crmExclusions (leave out a connected CRM's contacts and companies), dailyLeadLimit, duplicateHandling. Setting status active starts producing. ${LEAD_PRICES}`,
    input: updateSignalBody.extend(signalRef.shape),
    annotations: { ...CHANGES, idempotentHint: true },
    run: (caller, { signalId, ...changes }) => signals.update(caller, signalId, changes),
  });

export const pauseSignalTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'pause_signal',
    twin: 'pauseSignal',
    description: 'Pauses a signal: it produces (and spends) nothing until resumed. Answers the signal.',
    input: signalRef,
    annotations: { ...CHANGES, idempotentHint: true },
    run: (caller, { signalId }) => signals.setStatus(caller, signalId, 'paused'),
  });

export const resumeSignalTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'resume_signal',
    twin: 'resumeSignal',
    description:
      'Resumes (activates) a signal so it produces leads again; checks required config and credits as creation does. ' +
      `Answers the signal. ${LEAD_PRICES}`,
    input: signalRef,
    annotations: { ...CHANGES, idempotentHint: true },
    run: (caller, { signalId }) => signals.setStatus(caller, signalId, 'active'),
  });

export const deleteSignalTool = ({ signals }: Pick<Services, 'signals'>) =>
  defineTool({
    name: 'delete_signal',
    twin: 'deleteSignal',
    description:
      'Deletes a signal: pending deliveries are cancelled and nothing further is billed; its leads stay in the account history. Cannot be undone.',
    input: signalRef,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (caller, { signalId }) => {
      const { warnings } = await signals.delete(caller.accountId, signalId);
      return { deleted: true, signalId, ...(warnings.length > 0 ? { warnings } : {}) };
    },
  });
