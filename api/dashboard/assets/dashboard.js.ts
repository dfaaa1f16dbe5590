/**
 * The dashboard's only script, served from /assets (CSP: no inline script). Every page works
 * without it; it adds a copy button, confirmations, and progress on long actions.
 */
export const DASHBOARD_JS = `
'use strict';
document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent || '';
  var done = function () {
    button.textContent = 'Copied';
    var status = document.getElementById(button.getAttribute('data-copy') + '-status');
    if (status) status.textContent = 'Copied to the clipboard';
  };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
  } else {
    selectText(source);
  }
});
function selectText(node) {
  var range = document.createRange();
  range.selectNodeContents(node);
  var selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}
document.addEventListener('submit', function (event) {
  var form = event.target;
  var question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) { event.preventDefault(); return; }
  var progress = form.getAttribute('data-progress');
  if (progress) {
    var button = form.querySelector('button[type=submit], button:not([type])');
    if (button) { button.disabled = true; button.textContent = progress; }
    var status = form.querySelector('[role=status]');
    if (status) status.textContent = progress;
  }
});
`;
