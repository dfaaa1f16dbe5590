import { loadClientConnectConfig, type ClientConnectConfig } from '@temporalio/envconfig';

const LOCAL_ADDRESS = '127.0.0.1:7233';
const DEFAULT_NAMESPACE = 'default';

/**
 * Where and how this service reaches Temporal, read the way Temporal's own tools read it
 * (`@temporalio/envconfig`): `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY`,
 * `TEMPORAL_TLS*`, `TEMPORAL_GRPC_META_*`, and profiles in the TOML file named by
 * `TEMPORAL_CONFIG_FILE` (`TEMPORAL_PROFILE` picks one). Temporal Cloud is these variables set.
 */
export interface TemporalTarget {
  address: string;
  namespace: string;
  /** API key, TLS and gRPC metadata, for the client's and the worker's connection alike. */
  connection: ClientConnectConfig['connectionOptions'] & { address: string };
}

export function temporalTargetFrom(env: NodeJS.ProcessEnv): TemporalTarget {
  const defined = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const { connectionOptions, namespace } = loadClientConnectConfig({ overrideEnvVars: defined });
  const address = connectionOptions.address ?? LOCAL_ADDRESS;
  return { address, namespace: namespace ?? DEFAULT_NAMESPACE, connection: { ...connectionOptions, address } };
}
