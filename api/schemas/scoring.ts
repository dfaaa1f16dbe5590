import { z } from 'zod';
import { scoringModelSchema } from '../../src/signal-types/kit/account-score';

/** The scoring model's body and answers, shared by REST and the tool server. */
export const scoringModelBody = scoringModelSchema;

export const scoringModelAnswer = z
  .object({
    source: z.enum(['default', 'account']).meta({ description: '`default` until the account stores its own model' }),
    updatedAt: z.string().nullable(),
    model: scoringModelSchema,
  })
  .meta({ id: 'ScoringModelAnswer' });

export const scoreContribution = z.object({
  event_id: z.string(),
  type: z.string(),
  date: z.string(),
  weight: z.number().meta({ description: "The type's points: what the event added when fresh" }),
  decay: z.number().meta({ description: '0.5^(age / half-life)' }),
  contribution: z.number().meta({ description: 'Its share of the score (ceilings applied)' }),
});

export const companyScoreAnswer = z
  .object({
    companyId: z.string(),
    companyName: z.string(),
    at: z.string(),
    score: z.number(),
    grade: z.string(),
    distinctTypes: z.number().int(),
    modelSource: z.enum(['default', 'account']),
    breakdown: z.array(scoreContribution),
  })
  .meta({ id: 'CompanyScore' });

/** Company ids are the providers' own strings, not UUIDs. */
export const companyIdParam = z.object({ companyId: z.string().trim().min(1).max(200) });

export const leadWithEvidence = z
  .object({
    leadId: z.uuid(),
    signalId: z.uuid(),
    createdAt: z.string(),
    lead: z.looseObject({}).meta({ description: 'The lead as delivered (the webhook body), unchanged' }),
    evidence: z.object({
      events: z.array(
        z.object({
          eventId: z.string(),
          type: z.string(),
          occurredAt: z.string(),
          source: z.string(),
          url: z.string(),
          readAt: z.string(),
          evidence: z.unknown().optional(),
        }),
      ),
      conditions: z.array(z.object({ field: z.string(), required: z.unknown(), actual: z.unknown().optional() })),
      score: z.object({ score: z.unknown(), grade: z.unknown(), breakdown: z.unknown() }).optional(),
    }),
  })
  .meta({ id: 'LeadWithEvidence' });
