// The https agent of the DynamoDB client (lib/db/client.ts).
import { Agent, type AgentOptions } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Duplex } from 'node:stream';

/**
 * An https agent whose connections share one TLS context. Node's own builds a context for each
 * new connection, and a cold start opens one connection per read it sends side by side (five
 * in a followers page's first round trip, thirteen in explore's): about 0.5 ms of CPU each,
 * measured (docs/PERFORMANCE.md, "One TLS context"). The context is made on the first
 * connection, not at load, and holds Node's default trust store (with NODE_EXTRA_CA_CERTS), as a
 * context of its own would; every connection still checks the server's certificate.
 */
export class SharedContextAgent extends Agent {
  #context?: SecureContext;

  // `options` is the agent's own copy for this connection (Node spreads it anew for each).
  override createConnection(options: AgentOptions, callback?: (err: Error | null, socket: Duplex) => void): ReturnType<Agent['createConnection']> {
    options.secureContext = this.#context ??= createSecureContext();
    return super.createConnection(options, callback);
  }
}
