import type { Services } from '../../../../src/services';
import type { AppError } from '../../../../src/errors';
import { destinationsPatchFromForm } from '../../../../src/destinations/settings';
import { updateSignalBody } from '../../../schemas/signals';
import type { Notice } from '../../layout';
import { callerOf, errorNotice, signedIn, validatedBody, type DashboardContext } from '../../web';
import { counted } from '../format';
import { crmExclusionsOf } from '../signal-crm-exclusions';
import { signalDetail, signalIdOf, type SignalDetailDeps } from './detail';

/** What a button on the signal's page does; its notice (or its error's) is shown on the page again. */
type SignalAction = (ctx: DashboardContext, signalId: string) => Promise<Notice>;

/** An action on one of the caller's signals, answered with the signal's page. */
export const signalAction = (deps: SignalDetailDeps, run: SignalAction) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const signalId = signalIdOf(ctx);
  await deps.signals.requireOwned(session.accountId, signalId);
  let notice: Notice;
  let status = 200;
  try {
    notice = await run(ctx, signalId);
  } catch (err) {
    notice = errorNotice(err);
    status = (err as AppError).status;
  }
  await signalDetail(deps, ctx, notice, status);
};

export const saveDestinations =
  ({ signals }: Pick<Services, 'signals'>): SignalAction =>
  async (ctx, id) => {
    const signal = await signals.get(signedIn(ctx).accountId, id);
    const body = validatedBody(updateSignalBody, {
      destinations: destinationsPatchFromForm(ctx.state.form as URLSearchParams, signal.destinations),
    });
    await signals.update(callerOf(signedIn(ctx)), id, body);
    return { kind: 'ok', text: 'Destinations saved: new leads go there from now on.' };
  };

export const saveCrmExclusions =
  ({ signals }: Pick<Services, 'signals'>): SignalAction =>
  async (ctx, id) => {
    const body = validatedBody(updateSignalBody, { crmExclusions: crmExclusionsOf(ctx.state.form as URLSearchParams) });
    await signals.update(callerOf(signedIn(ctx)), id, body);
    return { kind: 'ok', text: 'CRM exclusions saved: they apply from the next evaluation.' };
  };

export const pauseSignal =
  ({ signals }: Pick<Services, 'signals'>): SignalAction =>
  async (ctx, id) => {
    await signals.setStatus(callerOf(signedIn(ctx)), id, 'paused');
    return { kind: 'ok', text: 'Paused: it produces nothing until resumed.' };
  };

export const resumeSignal =
  ({ signals }: Pick<Services, 'signals'>): SignalAction =>
  async (ctx, id) => {
    await signals.setStatus(callerOf(signedIn(ctx)), id, 'active');
    return { kind: 'ok', text: 'Active: it evaluates now and on its interval.' };
  };

export const sendTestWebhook =
  ({ testSends }: Pick<Services, 'testSends'>): SignalAction =>
  async (ctx, id) => {
    const result = await testSends.send(signedIn(ctx).accountId, id);
    const answer = result.statusCode === null ? 'no answer' : `HTTP ${result.statusCode}`;
    return result.success
      ? {
          kind: 'ok',
          text: `Test webhook delivered: the receiver answered ${answer}${result.signed ? '' : ' (unsigned: the signal has no key)'}.`,
        }
      : { kind: 'error', text: `Test webhook failed: ${answer}.` };
  };

export const replayLeads =
  ({ webhookReplays }: Pick<Services, 'webhookReplays'>): SignalAction =>
  async (ctx, id) => {
    const result = await webhookReplays.replay(signedIn(ctx).accountId, id);
    return {
      kind: result.failed ? 'warn' : 'ok',
      text: `Replay done: ${counted(result.total, 'lead')}, ${result.sent} delivered, ${result.failed} failed.`,
    };
  };

export const deleteSignal =
  ({ signals }: Pick<Services, 'signals'>) =>
  async (ctx: DashboardContext) => {
    const session = signedIn(ctx);
    await signals.delete(session.accountId, signalIdOf(ctx));
    ctx.redirect('/signals');
  };
