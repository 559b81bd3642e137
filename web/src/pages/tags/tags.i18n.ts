import type { Translations } from '../../i18n';

/** Tags page and tag modal. The validation texts are the spec's (§5), kept verbatim in pt-BR. */
export const tagsTranslations: Translations = {
  'pt-BR': {
    title: 'Tags',
    searchPlaceholder: 'Pesquisar...',
    add: 'Nova tag',
    columns: { name: 'Nome', tickets: 'Tickets', actions: 'Ações' },
    editTag: 'Editar {{name}}',
    deleteTag: 'Excluir {{name}}',
    deleteMessage: 'Esta ação não pode ser revertida. A tag será removida de todos os atendimentos.',
    modal: {
      addTitle: 'Adicionar tag',
      editTitle: 'Editar tag',
      name: 'Nome',
      color: 'Cor',
      kanban: 'Kanban',
      kanbanHint: 'Mostrar esta tag como coluna no Kanban',
    },
    validation: {
      required: 'Obrigatório',
      tooShort: 'Mensagem muito curta',
    },
  },
  en: {
    title: 'Tags',
    searchPlaceholder: 'Search...',
    add: 'New tag',
    columns: { name: 'Name', tickets: 'Tickets', actions: 'Actions' },
    editTag: 'Edit {{name}}',
    deleteTag: 'Delete {{name}}',
    deleteMessage: 'This cannot be undone. The tag will be removed from every ticket.',
    modal: {
      addTitle: 'Add tag',
      editTitle: 'Edit tag',
      name: 'Name',
      color: 'Colour',
      kanban: 'Kanban',
      kanbanHint: 'Show this tag as a Kanban lane',
    },
    validation: {
      required: 'Required',
      tooShort: 'Too short',
    },
  },
  es: {
    title: 'Etiquetas',
    searchPlaceholder: 'Buscar...',
    add: 'Nueva etiqueta',
    columns: { name: 'Nombre', tickets: 'Tickets', actions: 'Acciones' },
    editTag: 'Editar {{name}}',
    deleteTag: 'Eliminar {{name}}',
    deleteMessage: 'Esta acción no se puede deshacer. La etiqueta se quitará de todos los tickets.',
    modal: {
      addTitle: 'Agregar etiqueta',
      editTitle: 'Editar etiqueta',
      name: 'Nombre',
      color: 'Color',
      kanban: 'Kanban',
      kanbanHint: 'Mostrar esta etiqueta como columna en el Kanban',
    },
    validation: {
      required: 'Obligatorio',
      tooShort: 'Demasiado corto',
    },
  },
};
