import { decisiveStage, type SignalPreview } from '../../../src/services/signals/preview';
import { funnelStageLabel } from '../../../src/services/leads/funnel-stage-labels';
import { html, type SafeHtml } from '../html';
import { credits } from './format';

/** Where the create and edit forms show their cost preview; the script fills it as the form changes. */
export const PREVIEW_PANEL_ID = 'signal-preview';

/** The forecast in a few numbers a person reads before saving, and the filter that decides what is left. */
export function previewPanel(preview: SignalPreview): SafeHtml {
  const decisive = decisiveStage(preview.funnel);
  return html`<h2>What it would have done over the last ${preview.windowDays} days</h2>
    <div class="stats">
      <div class="stat">
        <div class="hint">Matching events</div>
        <div class="value" data-preview="matchingEvents">${preview.matchingEvents}</div>
      </div>
      <div class="stat">
        <div class="hint">Leads a day</div>
        <div class="value" data-preview="expectedLeadsPerDay">${String(preview.expectedLeadsPerDay)}</div>
      </div>
      <div class="stat">
        <div class="hint">Credits a day</div>
        <div class="value" data-preview="expectedCreditsPerDay">${credits(preview.expectedCreditsPerDay)}</div>
      </div>
    </div>
    ${preview.capLimited ? html`<p class="notice warn" data-preview="heldByCap">The daily lead limit would have held leads back for later days${preview.heldByCap > 0 ? ` (${preview.heldByCap} still waiting at the end)` : ''}.</p>` : ''}
    ${decisive ? html`<p class="hint" data-preview="decisiveStage" data-stage="${decisive.stage.filter}">${decisive.emptied ? `No candidate is left after “${funnelStageLabel(decisive.stage.filter)}”, which removes the last ${decisive.stage.removed}.` : `Most candidates are removed by “${funnelStageLabel(decisive.stage.filter)}” (${decisive.stage.removed}).`}</p>` : ''}
    ${preview.warnings.map((w) => html`<p class="notice warn">${w.message}</p>`)}`;
}

/** A preview that could not be made: why, in the same words as a refused save, so the panel never just empties. */
export function previewProblem(text: string): SafeHtml {
  return html`<p class="notice error" role="alert" data-preview="problem">Cannot estimate the cost: ${text}</p>`;
}
