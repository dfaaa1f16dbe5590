/**
 * The dashboard's only script, served from /assets (CSP: no inline script). Every page works
 * without it; it adds a copy button, confirmations, progress on long actions, and the cost
 * preview of a signal's form as it changes (without it, the form's Preview button asks for it).
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
var previewTimers = new WeakMap();
function refreshPreview(form) {
  var panel = form.querySelector('#signal-preview');
  if (!panel) return;
  var body = new URLSearchParams(new FormData(form));
  panel.setAttribute('aria-busy', 'true');
  fetch(form.getAttribute('data-preview-action'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Preview': 'fragment' },
    body: body.toString()
  }).then(function (answer) {
    return answer.ok ? answer.text() : Promise.reject(new Error('preview ' + answer.status));
  }).then(function (fragment) {
    panel.innerHTML = fragment;
  }, function () {
    panel.textContent = 'The preview is not available right now.';
  }).then(function () { panel.removeAttribute('aria-busy'); });
}
function schedulePreview(event) {
  var form = event.target.closest && event.target.closest('form[data-preview-action]');
  if (!form) return;
  clearTimeout(previewTimers.get(form));
  previewTimers.set(form, setTimeout(function () { refreshPreview(form); }, 500));
}
document.addEventListener('input', schedulePreview);
document.addEventListener('change', schedulePreview);
document.addEventListener('DOMContentLoaded', function () {
  var forms = document.querySelectorAll('form[data-preview-action]');
  for (var i = 0; i < forms.length; i++) {
    var panel = forms[i].querySelector('#signal-preview');
    if (panel && !panel.hasChildNodes()) refreshPreview(forms[i]);
  }
});
`;
