import type { SignalPreview } from '../../../src/services/signals/preview';
import { html, type SafeHtml } from '../html';
import { credits } from './format';

/** Where the create and edit forms show their cost preview; the script fills it as the form changes. */
export const PREVIEW_PANEL_ID = 'signal-preview';

/** The forecast in a few numbers a person reads before saving, and the funnel's biggest filter. */
export function previewPanel(preview: SignalPreview): SafeHtml {
  const narrowest = [...preview.funnel].filter((stage) => stage.removed > 0).sort((a, b) => b.removed - a.removed)[0];
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
    ${preview.capLimited ? html`<p class="notice warn">The daily cap would have held leads back for later days.</p>` : ''}
    ${narrowest ? html`<p class="hint">Most candidates are removed by <code>${narrowest.filter}</code> (${narrowest.removed}).</p>` : ''}
    ${preview.warnings.map((w) => html`<p class="notice warn">${w.message}</p>`)}`;
}

/** A preview that could not be made: the same words as a refused save. */
export function previewProblem(text: string): SafeHtml {
  return html`<p class="notice error" role="alert">Preview not possible: ${text}</p>`;
}
