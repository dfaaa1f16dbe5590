import type { Services } from '../../../../src/services';
import { validationError, type AppError } from '../../../../src/errors';
import { SIGNAL_TYPES, type SignalType } from '../../../../src/signal-types/registry';
import { createBodyOf } from '../../../schemas/signals';
import { html, type SafeHtml } from '../../html';
import { page, type Notice } from '../../layout';
import { callerOf, errorNotice, field, isUuid, send, signedIn, validatedBody, type DashboardContext } from '../../web';
import { bodyOfForm, fieldProblemsOf, signalForm, type FieldProblems } from '../signal-parts';
import { previewOfForm, sendFragment, wantsFragment } from './form-preview';

/** The types the dashboard creates: those whose module gives a dashboard form. */
export const FORM_TYPES = SIGNAL_TYPES.filter((type) => type.dashboardForm);
export const newTitle = (type: SignalType) => `New ${type.createPath} signal`;

/** A type's create form; without a live API key it asks for one first (its webhook secret signs the deliveries). */
async function newForm(
  { apiKeys }: Pick<Services, 'apiKeys'>,
  ctx: DashboardContext,
  type: SignalType,
  values: URLSearchParams,
  notice?: Notice,
  status = 200,
  shownPreview?: SafeHtml,
  problems?: FieldProblems,
) {
  const session = signedIn(ctx);
  const keys = (await apiKeys.list(session.accountId)).filter((k) => !k.revokedAt);
  const action = `/signals/new/${type.createPath}`;
  const body: SafeHtml = keys.length
    ? signalForm({
        session,
        type,
        action,
        values,
        keys,
        preview: { action: `${action}/preview`, shown: shownPreview },
        problems,
      })
    : html`<p>First <a href="/api-keys">create an API key</a>: its webhook secret signs this signal's deliveries.</p>`;
  send(ctx, page({ title: newTitle(type), section: '/signals', session, notice, body }), status);
}

export const newSignalPage = (deps: Pick<Services, 'apiKeys'>, type: SignalType) => (ctx: DashboardContext) =>
  newForm(deps, ctx, type, new URLSearchParams());

export const createSignal =
  (deps: Pick<Services, 'apiKeys' | 'signals'>, type: SignalType) => async (ctx: DashboardContext) => {
    const session = signedIn(ctx);
    const form = ctx.state.form as URLSearchParams;
    try {
      const keyId = field(form, 'apiKeyId');
      const key = isUuid(keyId) ? await deps.apiKeys.requireOwned(session.accountId, keyId).catch(() => null) : null;
      if (!key || key.revokedAt)
        throw validationError([{ field: 'apiKeyId', message: 'choose one of your live API keys' }]);
      const body = validatedBody(createBodyOf(type), bodyOfForm(type, form, false));
      const created = await deps.signals.create(callerOf(session, key.id), type.signalTypeId, body);
      ctx.redirect(`/signals/${created.id}?notice=created`);
    } catch (err) {
      await newForm(
        deps,
        ctx,
        type,
        form,
        errorNotice(err),
        (err as AppError).status,
        undefined,
        fieldProblemsOf(err, type, form),
      );
    }
  };

export const previewNewSignal =
  (deps: Pick<Services, 'apiKeys' | 'signalPreviews'>, type: SignalType) => async (ctx: DashboardContext) => {
    const session = signedIn(ctx);
    const form = ctx.state.form as URLSearchParams;
    const shown = await previewOfForm(deps.signalPreviews, session, type, bodyOfForm(type, form, false));
    if (wantsFragment(ctx)) return sendFragment(ctx, shown);
    await newForm(deps, ctx, type, form, undefined, 200, shown);
  };
