import type { ConversationStep } from '../steps/conversation-steps.js';
import type { Chatbot } from './chatbot.js';

/** The chatbot menu as the last conversation step: it answers what it can and always ends the turn. */
export function chatbotStep(chatbot: Chatbot): ConversationStep {
  return {
    name: 'chatbot',
    run: async (turn) => {
      const { ticket, contact, connectionId, message, firstMessage } = turn;
      await chatbot.handle({ ticket, contact, connectionId, text: message.body, firstMessage });
      return true;
    },
  };
}
