import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): memory-hard, so
 * a stolen table cannot be guessed through cheaply on GPUs. The encoded hash carries its own
 * parameters and salt, so stronger settings later still verify older hashes.
 */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function passwordMatches(encoded: string, password: string): Promise<boolean> {
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}

/** Verifying against this when the email is unknown keeps sign-in time the same either way. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword('decoy password that matches nothing'));
