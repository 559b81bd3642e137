import type { Translations } from '../i18n';

/** The week editor's labels (shared by the company's and the queues' working hours). */
export const weekHoursTranslations: Translations = {
  'pt-BR': {
    weekday: 'Dia da semana',
    start: 'Hora de início',
    end: 'Hora de término',
    required: 'Obrigatório',
    invalidTime: 'Hora inválida (HH:MM)',
    days: {
      monday: 'Segunda-feira',
      tuesday: 'Terça-feira',
      wednesday: 'Quarta-feira',
      thursday: 'Quinta-feira',
      friday: 'Sexta-feira',
      saturday: 'Sábado',
      sunday: 'Domingo',
    },
  },
  en: {
    weekday: 'Weekday',
    start: 'Start time',
    end: 'End time',
    required: 'Required',
    invalidTime: 'Invalid time (HH:MM)',
    days: {
      monday: 'Monday',
      tuesday: 'Tuesday',
      wednesday: 'Wednesday',
      thursday: 'Thursday',
      friday: 'Friday',
      saturday: 'Saturday',
      sunday: 'Sunday',
    },
  },
  es: {
    weekday: 'Día de la semana',
    start: 'Hora de inicio',
    end: 'Hora de término',
    required: 'Obligatorio',
    invalidTime: 'Hora inválida (HH:MM)',
    days: {
      monday: 'Lunes',
      tuesday: 'Martes',
      wednesday: 'Miércoles',
      thursday: 'Jueves',
      friday: 'Viernes',
      saturday: 'Sábado',
      sunday: 'Domingo',
    },
  },
};
