/**
 * The queue colour palette: Google's Material Design colours, shades 300, 500 and 700 of its
 * sixteen hues, plus grey 500 and blue grey 500 (50 distinct colours).
 */
export const PALETTE = [
  '#e57373', '#f44336', '#d32f2f', // red
  '#f06292', '#e91e63', '#c2185b', // pink
  '#ba68c8', '#9c27b0', '#7b1fa2', // purple
  '#9575cd', '#673ab7', '#512da8', // deep purple
  '#7986cb', '#3f51b5', '#303f9f', // indigo
  '#64b5f6', '#2196f3', '#1976d2', // blue
  '#4fc3f7', '#03a9f4', '#0288d1', // light blue
  '#4dd0e1', '#00bcd4', '#0097a7', // cyan
  '#4db6ac', '#009688', '#00796b', // teal
  '#81c784', '#4caf50', '#388e3c', // green
  '#aed581', '#8bc34a', '#689f38', // light green
  '#dce775', '#cddc39', '#afb42b', // lime
  '#fff176', '#ffeb3b', '#fbc02d', // yellow
  '#ffd54f', '#ffc107', '#ffa000', // amber
  '#ffb74d', '#ff9800', '#f57c00', // orange
  '#ff8a65', '#ff5722', '#e64a19', // deep orange
  '#9e9e9e', // grey
  '#607d8b', // blue grey
];
