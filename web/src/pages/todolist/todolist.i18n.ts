import type { Translations } from '../../i18n';

export const todolistTranslations: Translations = {
  'pt-BR': {
    title: 'Tarefas',
    placeholder: 'Nova tarefa',
    add: 'Adicionar',
    created: 'Criada em {{date}}',
    edited: 'Editada em {{date}}',
    empty: 'Nenhuma tarefa',
    edit: 'Editar tarefa',
    delete: 'Excluir tarefa',
    editInput: 'Texto da tarefa',
  },
  en: {
    title: 'Tasks',
    placeholder: 'New task',
    add: 'Add',
    created: 'Created on {{date}}',
    edited: 'Edited on {{date}}',
    empty: 'No tasks',
    edit: 'Edit task',
    delete: 'Delete task',
    editInput: 'Task text',
  },
  es: {
    title: 'Tareas',
    placeholder: 'Nueva tarea',
    add: 'Agregar',
    created: 'Creada el {{date}}',
    edited: 'Editada el {{date}}',
    empty: 'Ninguna tarea',
    edit: 'Editar tarea',
    delete: 'Eliminar tarea',
    editInput: 'Texto de la tarea',
  },
};
