import { ValueTransformer } from 'typeorm';

/** pg returns NUMERIC as a string to avoid float loss; credits have one decimal, so a number is exact enough. */
export const numericColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
