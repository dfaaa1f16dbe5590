import type { RouteOutcome } from '../src/temporal/contract';

interface RouteState {
  deliveryId: string;
  route: string;
  status: RouteOutcome | 'sending' | 'retrying';
  detail: string;
}

/** Where each route of a lead stands, as the lead workflow's current details show it in the Web UI. */
export class RouteBoard {
  private readonly routes: RouteState[];

  constructor(deliveries: Array<{ deliveryId: string; route: string }>) {
    this.routes = deliveries.map((d) => ({
      deliveryId: d.deliveryId,
      route: d.route,
      status: 'sending',
      detail: 'first attempt',
    }));
  }

  retrying(deliveryId: string, at: number, why: string): void {
    this.update(deliveryId, 'retrying', `next attempt at ${new Date(at).toISOString()}: ${why}`);
  }

  settle(deliveryId: string, status: RouteOutcome, detail: string): RouteOutcome {
    this.update(deliveryId, status, detail);
    return status;
  }

  unsettled(): Array<{ deliveryId: string; route: string }> {
    return this.routes.filter((r) => r.status === 'sending' || r.status === 'retrying');
  }

  /** Markdown: one line per route. */
  describe(): string {
    if (this.routes.length === 0) return 'No routes: the lead is read by polling only.';
    return this.routes
      .map((r) => `- **${r.route}**: ${r.status}${r.detail ? ` — ${r.detail}` : ''} (delivery \`${r.deliveryId}\`)`)
      .join('\n');
  }

  private update(deliveryId: string, status: RouteState['status'], detail: string): void {
    const route = this.routes.find((r) => r.deliveryId === deliveryId);
    if (route) Object.assign(route, { status, detail });
  }
}
