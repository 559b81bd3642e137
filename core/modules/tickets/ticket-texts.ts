import { renderTemplate, type TemplateContext } from './templates.js';

/**
 * The fixed Portuguese texts the product sends on ticket transitions (reference §6 and §7), kept
 * verbatim. Names of people and queues are put in after the template is rendered, so a name that
 * happens to contain `{{…}}` is sent as written.
 */

/** Sent on accept when sendGreetingAccepted is enabled. */
export function acceptGreeting(ctx: TemplateContext, agentName: string): string {
  return `${renderTemplate('{{ms}} *{{name}}*', ctx)}, meu nome é *${agentName}* e agora vou prosseguir com seu atendimento!`;
}

export const RATING_QUESTION = 'Digite de 1 à 3 para qualificar nosso atendimento:\n\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_';

/** The connection's rating message (if any) and the question, as one message. */
export function ratingRequest(ratingMessage: string, ctx: TemplateContext): string {
  const intro = renderTemplate(ratingMessage, ctx).trim();
  return intro ? `${intro}\n\n${RATING_QUESTION}` : RATING_QUESTION;
}

/** Sent on a transfer when sendMsgTransfTicket is enabled; null when neither queue nor user changed. */
export function transferNotice(change: { queue?: string; user?: string }): string | null {
  if (change.queue !== undefined && change.user !== undefined) {
    return `*Mensagem automática*:\nVocê foi transferido para o departamento *${change.queue}* e contará com a presença de *${change.user}*!`;
  }
  if (change.queue !== undefined) return `*Mensagem automática*:\nVocê foi transferido para o departamento *${change.queue}*\naguarde, já vamos te atender!`;
  if (change.user !== undefined) return `*Mensagem automática*:\nFoi transferido para o atendente *${change.user}*\naguarde, já vamos te atender!`;
  return null;
}
