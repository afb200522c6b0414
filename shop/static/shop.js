// What the print shop's page scripts share (loaded first): make an element.
// eslint-disable-next-line no-unused-vars
function Tablesmith_el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}
