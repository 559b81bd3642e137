import { ValidationError } from '../../errors.js';
import { ErrorCode } from '../../contract/error-codes.js';
import { validate } from '../../http/validate.js';
import type { SimulatorApi } from './simulated-phone.js';
import { INBOUND_BATCH_MAX, inboundBatchSchema, inboundSchema, limitSchema, scanSchema } from './simulator.schema.js';

export interface SimulatorAnswer {
  status: number;
  body: unknown;
}

/**
 * One action of the simulator's test API: its method and, from the request's body (validated
 * here, first), what to do with a connection's phone and what to answer. A node serves these under
 * /api/simulator/:id/ after its permission checks; `atende simulate server` under /connections/:id/.
 */
export interface SimulatorAction {
  method: 'GET' | 'POST';
  prepare(body: unknown): (api: SimulatorApi, connectionId: number) => Promise<SimulatorAnswer>;
}

export const simulatorActions: Record<'scan' | 'inbound' | 'outbox' | 'disconnect' | 'limit', SimulatorAction> = {
  scan: {
    method: 'POST',
    prepare(body) {
      const { number } = validate(scanSchema, body);
      return async (api, id) => ({ status: 200, body: { status: 'CONNECTED', number: await api.scan(id, number) } });
    },
  },

  /**
   * One message answers `{ message }`; an array of them `{ messages }`: 201 once all are journaled,
   * 202 when the simulator server keeps them for a node that is not there yet.
   */
  inbound: {
    method: 'POST',
    prepare(body) {
      const batch = Array.isArray(body);
      if (batch && body.length > INBOUND_BATCH_MAX) {
        throw new ValidationError(`At most ${INBOUND_BATCH_MAX} messages per request`, undefined, ErrorCode.ERR_SIMULATOR_TOO_MANY_MESSAGES);
      }
      const inputs = batch ? validate(inboundBatchSchema, body) : [validate(inboundSchema, body)];
      return async (api, id) => {
        const { messages, delivered } = await api.inbound(id, inputs);
        return { status: delivered ? 201 : 202, body: batch ? { messages } : { message: messages[0] } };
      };
    },
  },

  outbox: {
    method: 'GET',
    prepare: () => async (api, id) => ({ status: 200, body: await api.outbox(id) }),
  },

  disconnect: {
    method: 'POST',
    prepare: () => async (api, id) => {
      await api.disconnect(id);
      return { status: 200, body: { status: 'DISCONNECTED' } };
    },
  },

  limit: {
    method: 'POST',
    prepare(body) {
      const { active, until } = validate(limitSchema, body);
      return async (api, id) => {
        await api.limit(id, active, until);
        return { status: 200, body: { active } };
      };
    },
  },
};
