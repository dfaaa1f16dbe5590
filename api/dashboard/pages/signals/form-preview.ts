import type { Services } from '../../../../src/services';
import { AppError } from '../../../../src/errors';
import type { MemberSession } from '../../../../src/services/member-sessions';
import type { SignalType } from '../../../../src/signal-types/registry';
import { createBodyOf } from '../../../schemas/signals';
import type { SafeHtml } from '../../html';
import { problemText, validatedBody, type DashboardContext } from '../../web';
import { previewPanel, previewProblem } from '../signal-preview';

/** The script asks for the preview panel alone; a form submitted without it gets the whole page. */
export const wantsFragment = (ctx: DashboardContext) => ctx.get('X-Preview') === 'fragment';
export const sendFragment = (ctx: DashboardContext, fragment: SafeHtml) => {
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = fragment.text;
};

/** The cost preview of a form's create body, or why there is none, as the panel shows it. */
export async function previewOfForm(
  signalPreviews: Services['signalPreviews'],
  session: MemberSession,
  type: SignalType,
  body: Record<string, unknown>,
) {
  try {
    const draft = validatedBody(createBodyOf(type), { ...body, name: body.name || 'Preview' });
    // A member's previews share one cap, as an API key's do.
    const caller = { accountId: session.accountId, keyId: session.memberId };
    return previewPanel(await signalPreviews.preview(caller, type.signalTypeId, draft));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return previewProblem(problemText(err));
  }
}
