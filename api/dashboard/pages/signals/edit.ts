import type { Services } from '../../../../src/services';
import type { AppError } from '../../../../src/errors';
import { signalType } from '../../../../src/signal-types/registry';
import { updateSignalBody } from '../../../schemas/signals';
import { html, type SafeHtml } from '../../html';
import { page, type Notice } from '../../layout';
import { callerOf, errorNotice, send, signedIn, validatedBody, type DashboardContext } from '../../web';
import { bodyOfForm, fieldProblemsOf, signalForm, valuesOfSignal, type FieldProblems } from '../signal-parts';
import { watchlistCard } from '../signal-watchlist';
import { previewOfForm, sendFragment, wantsFragment } from './form-preview';
import { signalIdOf } from './detail';

type EditDeps = Pick<Services, 'signals' | 'watchlistMatches'>;

/** The signal's edit form, with its watchlist's counts when it watches companies. */
async function editForm(
  { signals, watchlistMatches }: EditDeps,
  ctx: DashboardContext,
  values?: URLSearchParams,
  notice?: Notice,
  status = 200,
  shownPreview?: SafeHtml,
  problems?: FieldProblems,
) {
  const session = signedIn(ctx);
  const signal = await signals.get(session.accountId, signalIdOf(ctx));
  const type = signalType(signal.signalTypeId);
  const matchCounts = type.watchesCompanies ? await watchlistMatches.counts(signal.id) : null;
  send(
    ctx,
    page({
      title: `Edit ${signal.name}`,
      section: '/signals',
      session,
      notice,
      body: html`${signalForm({
          session,
          type,
          action: `/signals/${signal.id}/edit`,
          values: values ?? valuesOfSignal(signal, type),
          editing: true,
          preview: { action: `/signals/${signal.id}/edit/preview`, shown: shownPreview },
          problems,
        })}
        ${matchCounts ? watchlistCard(signal.id, matchCounts) : ''}
        <p><a href="/signals/${signal.id}">Back to the signal</a></p>`,
    }),
    status,
  );
}

export const editSignalPage = (deps: EditDeps) => (ctx: DashboardContext) => editForm(deps, ctx);

export const saveSignal = (deps: EditDeps) => async (ctx: DashboardContext) => {
  const { signals } = deps;
  const session = signedIn(ctx);
  const signal = await signals.get(session.accountId, signalIdOf(ctx));
  const form = ctx.state.form as URLSearchParams;
  try {
    const body = validatedBody(updateSignalBody, bodyOfForm(signalType(signal.signalTypeId), form, true));
    await signals.update(callerOf(session), signal.id, body);
    ctx.redirect(`/signals/${signal.id}?notice=saved`);
  } catch (err) {
    const problems = fieldProblemsOf(err, signalType(signal.signalTypeId), form);
    await editForm(deps, ctx, form, errorNotice(err), (err as AppError).status, undefined, problems);
  }
};

export const previewEditedSignal =
  (deps: EditDeps & Pick<Services, 'watchlists' | 'signalPreviews'>) => async (ctx: DashboardContext) => {
    const { signals, watchlists } = deps;
    const session = signedIn(ctx);
    const signal = await signals.get(session.accountId, signalIdOf(ctx));
    const type = signalType(signal.signalTypeId);
    const form = ctx.state.form as URLSearchParams;
    const body = bodyOfForm(type, form, false);
    if (type.watchesCompanies) {
      // The edit form adds companies; the preview counts the ones already watched too.
      const watched = await watchlists.list(signal.id, { limit: 10_000, offset: 0 });
      const adding = ((body.config as { companies?: unknown[] }).companies ?? []) as unknown[];
      const kept = watched.items.map(({ name, domain, linkedinUrl }) => ({ name, domain, linkedinUrl }));
      (body.config as Record<string, unknown>).companies = [...kept, ...adding].slice(0, 10_000);
    }
    const shown = await previewOfForm(deps.signalPreviews, session, type, body);
    if (wantsFragment(ctx)) return sendFragment(ctx, shown);
    await editForm(deps, ctx, form, undefined, 200, shown);
  };
