import type Router from '@koa/router';
import type { Services } from '../../../src/services';
import { AppError, notFound } from '../../../src/errors';
import {
  SCORED_EVENT_TYPES,
  scoringModelSchema,
  type ScoreContribution,
  type ScoringModel,
} from '../../../src/signal-types/kit/account-score';
import type { CompanyScoreAnswer } from '../../../src/services/account-scores';
import { html, type SafeHtml } from '../html';
import { csrfField, page, type Notice } from '../layout';
import { errorNotice, isUuid, send, signedIn, validatedBody, type DashboardContext, type DashboardState } from '../web';
import { dateTime } from './format';

const RULE_FIELDS = [
  ['points', 'Points'],
  ['halfLifeDays', 'Half-life (days)'],
  ['ceiling', 'Ceiling'],
] as const;

const render = async (
  services: Pick<Services, 'accountScores'>,
  ctx: DashboardContext,
  options: { notice?: Notice; status?: number; form?: ScoringModel },
) => {
  const session = signedIn(ctx);
  const stored = await services.accountScores.model(session.accountId);
  const model = options.form ?? stored.model;
  const companyId = typeof ctx.query.companyId === 'string' ? ctx.query.companyId.trim() : '';
  let score: CompanyScoreAnswer | null = null;
  let notice = options.notice;
  if (companyId) {
    try {
      score = await services.accountScores.companyScore(session.accountId, companyId.slice(0, 200));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      notice = { kind: 'error', text: `No company ${companyId}.` };
    }
  }
  send(
    ctx,
    page({
      title: 'Account score',
      section: '/scoring',
      session,
      notice,
      body: html`<section class="card">
          <h2>Scoring model</h2>
          <p class="hint">
            ${stored.source === 'default' ? 'The defaults' : `Your own, saved ${dateTime(stored.updatedAt!)}`}. Each
            event adds its points, halved every half-life; one type's events add at most its ceiling; the types add up
            to at most 100. Points 0 leave a type out.
          </p>
          <form class="stack" method="post" action="/scoring">
            ${csrfField(session.csrfToken)}
            <table class="responsive scoring-model">
              <thead>
                <tr>
                  <th>Event type</th>
                  ${RULE_FIELDS.map(([, label]) => html`<th>${label}</th>`)}
                </tr>
              </thead>
              <tbody>
                ${SCORED_EVENT_TYPES.map((type) => {
                  const rule = model.eventTypes[type];
                  return html`<tr>
                    <td data-label="Event type">${type.replace(/_/g, ' ')}</td>
                    ${RULE_FIELDS.map(
                      ([field, label]) =>
                        html`<td data-label="${label}">
                          <input
                            type="number"
                            step="any"
                            min="0"
                            name="${type}.${field}"
                            aria-label="${type} ${label}"
                            value="${rule ? String(rule[field]) : field === 'halfLifeDays' ? '30' : '0'}"
                          />
                        </td>`,
                    )}
                  </tr>`;
                })}
              </tbody>
            </table>
            <div><button type="submit">Save the model</button></div>
          </form>
        </section>
        <section class="card">
          <h2>A company's score</h2>
          <form method="get" action="/scoring" class="actions">
            <div>
              <label for="companyId">Company id</label
              ><input id="companyId" name="companyId" value="${companyId}" maxlength="200" />
            </div>
            <div><button type="submit">Score it</button></div>
          </form>
          ${
            score
              ? html`<p>
                    <strong>${score.companyName}</strong>: <span class="score">${String(score.score)}</span> (grade
                    ${score.grade}, ${String(score.distinctTypes)} types) at ${dateTime(score.at)}
                  </p>
                  ${breakdownTable(score.breakdown)}`
              : ''
          }
        </section>`,
    }),
    options.status,
  );
};

const scoringPage = (services: Pick<Services, 'accountScores'>) => (ctx: DashboardContext) => render(services, ctx, {});

const saveScoringModel = (services: Pick<Services, 'accountScores'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const form = ctx.state.form as URLSearchParams;
  const eventTypes: Record<string, Record<string, number>> = {};
  for (const type of SCORED_EVENT_TYPES) {
    const rule = Object.fromEntries(RULE_FIELDS.map(([field]) => [field, Number(form.get(`${type}.${field}`) ?? '')]));
    // A type with no points is left out of the model: it scores nothing either way.
    if (rule.points > 0 || Number.isNaN(rule.points)) eventTypes[type] = rule;
  }
  try {
    const model = validatedBody(scoringModelSchema, { eventTypes });
    await services.accountScores.setModel(session.accountId, model);
    await render(services, ctx, {
      notice: { kind: 'ok', text: 'Scoring model saved: score signals read their window again.' },
    });
  } catch (err) {
    await render(services, ctx, {
      notice: errorNotice(err),
      status: (err as AppError).status,
      form: { eventTypes } as ScoringModel,
    });
  }
};

const leadEvidencePage = (services: Pick<Services, 'leadEvidence'>) => async (ctx: DashboardContext) => {
  const session = signedIn(ctx);
  const id = String(ctx.params.leadId);
  if (!isUuid(id)) throw notFound('Lead');
  const { lead, evidence, signalId, createdAt } = await services.leadEvidence.ofLead(session.accountId, id);
  const payload = lead as { company?: { name?: unknown }; signal?: { last_signal?: unknown; name?: unknown } };
  send(
    ctx,
    page({
      title: 'Why this lead',
      section: '/signals',
      session,
      body: html`<section class="card">
        <h2>${String(payload.company?.name ?? '')} · ${String(payload.signal?.last_signal ?? '')}</h2>
        <p class="hint">
          Lead ${id} of <a href="/signals/${signalId}">${String(payload.signal?.name ?? 'its signal')}</a>, made
          ${dateTime(createdAt)}.
        </p>
        <h3>The events that made it</h3>
        <table class="responsive evidence-events">
          <thead>
            <tr>
              <th>Event</th>
              <th>When</th>
              <th>Source</th>
              <th>Record</th>
              <th>Read</th>
            </tr>
          </thead>
          <tbody>
            ${evidence.events.map(
              (e) =>
                html`<tr>
                  <td data-label="Event">${e.type.replace(/_/g, ' ')}</td>
                  <td data-label="When">${dateTime(e.occurredAt)}</td>
                  <td data-label="Source">${e.source}</td>
                  <td data-label="Record">
                    ${/^https?:\/\//i.test(e.url) ? html`<a href="${e.url}" rel="noreferrer">${e.url}</a>` : e.eventId}
                  </td>
                  <td data-label="Read">${dateTime(e.readAt)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
        <h3>The conditions it met</h3>
        <dl class="lead-facts">
          ${evidence.conditions.map(
            (c) =>
              html`<dt>${c.field}</dt>
                <dd>
                  ${valueText(c.required)}${c.actual !== undefined ? html` <span class="hint">(had ${valueText(c.actual)})</span>` : ''}
                </dd>`,
          )}
        </dl>
        ${
          evidence.score
            ? html`<h3>The score: ${String(evidence.score.score)} (grade ${String(evidence.score.grade)})</h3>
                ${breakdownTable(evidence.score.breakdown as ScoreContribution[])}`
            : ''
        }
      </section>`,
    }),
  );
};

/**
 * The account score on the dashboard: the account's scoring model (one row per event type),
 * a company's score with its breakdown, and a lead's evidence (the lead row's "Why" link).
 * The same services as GET/PUT /api/v1/scoring-model, the company score and GET /api/v1/leads/{leadId}.
 */
export function scoringRoutes(
  router: Router<DashboardState>,
  services: Pick<Services, 'accountScores' | 'leadEvidence'>,
): void {
  router.get('/scoring', scoringPage(services));
  router.post('/scoring', saveScoringModel(services));
  router.get('/leads/:leadId', leadEvidencePage(services));
}

const valueText = (value: unknown) =>
  Array.isArray(value)
    ? value.join(', ')
    : typeof value === 'object' && value !== null
      ? JSON.stringify(value)
      : String(value);

function breakdownTable(parts: ScoreContribution[]): SafeHtml {
  return html`<table class="responsive score-breakdown">
    <thead>
      <tr>
        <th>Event</th>
        <th>Date</th>
        <th>Weight</th>
        <th>Decay</th>
        <th>Contribution</th>
      </tr>
    </thead>
    <tbody>
      ${parts.map(
        (p) =>
          html`<tr>
            <td data-label="Event">${p.type.replace(/_/g, ' ')}</td>
            <td data-label="Date">${p.date.slice(0, 10)}</td>
            <td data-label="Weight">${String(p.weight)}</td>
            <td data-label="Decay">${String(p.decay)}</td>
            <td data-label="Contribution">${String(p.contribution)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
