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
// Long lists (personas, industries): a filter narrows the options, Enter picks the first shown,
// a plain click toggles one, and the line below says what is chosen; the select stays the form's field.
function pickerOf(name) { return document.getElementById(name); }
function showChosen(select) {
  var line = document.querySelector('[data-picker-chosen="' + select.id + '"]');
  if (!line) return;
  var names = [];
  for (var i = 0; i < select.options.length; i++) if (select.options[i].selected) names.push(select.options[i].value);
  line.textContent = names.length ? 'Chosen (' + names.length + '): ' + names.join(', ') : 'None chosen';
}
function filterPicker(input) {
  var select = pickerOf(input.getAttribute('data-picker-for'));
  if (!select) return;
  var text = input.value.trim().toLowerCase();
  var groups = select.querySelectorAll('optgroup');
  for (var i = 0; i < select.options.length; i++) {
    var option = select.options[i];
    var group = option.parentNode.tagName === 'OPTGROUP' ? option.parentNode.label.toLowerCase() : '';
    option.hidden = text !== '' && option.value.toLowerCase().indexOf(text) < 0 && group.indexOf(text) < 0;
  }
  for (var j = 0; j < groups.length; j++) groups[j].hidden = !groups[j].querySelector('option:not([hidden])');
}
function toggleOption(select, option) {
  option.selected = !option.selected;
  showChosen(select);
  select.dispatchEvent(new Event('change', { bubbles: true }));
}
function addPlace(input) {
  var name = input.closest('[data-place-adder]').getAttribute('data-place-adder');
  var area = document.getElementById(name);
  var place = input.value.trim();
  if (!area || !place) return;
  var lines = area.value.split(/\\r?\\n/).map(function (l) { return l.trim(); }).filter(Boolean);
  if (lines.indexOf(place) < 0) lines.push(place);
  area.value = lines.join('\\n');
  input.value = '';
  area.dispatchEvent(new Event('input', { bubbles: true }));
}
document.addEventListener('keydown', function (event) {
  if (event.key !== 'Enter') return;
  var target = event.target;
  if (target.matches && target.matches('[data-picker-for]')) {
    event.preventDefault();
    var select = pickerOf(target.getAttribute('data-picker-for'));
    var first = select && select.querySelector('option:not([hidden])');
    if (first) toggleOption(select, first);
    target.value = '';
    filterPicker(target);
  } else if (target.closest && target.closest('[data-place-adder]')) {
    event.preventDefault();
    addPlace(target);
  }
});
document.addEventListener('mousedown', function (event) {
  var option = event.target.closest && event.target.closest('select[data-picker] option');
  if (!option) return;
  event.preventDefault();
  var select = option.closest('select');
  select.focus();
  toggleOption(select, option);
});
document.addEventListener('input', function (event) {
  if (event.target.matches && event.target.matches('[data-picker-for]')) filterPicker(event.target);
});
document.addEventListener('change', function (event) {
  if (event.target.matches && event.target.matches('select[data-picker]')) showChosen(event.target);
});
document.addEventListener('input', schedulePreview);
document.addEventListener('change', schedulePreview);
document.addEventListener('DOMContentLoaded', function () {
  var filters = document.querySelectorAll('[data-picker-for], [data-place-adder]');
  for (var f = 0; f < filters.length; f++) filters[f].hidden = false;
  var pickers = document.querySelectorAll('select[data-picker]');
  for (var p = 0; p < pickers.length; p++) showChosen(pickers[p]);
  var forms = document.querySelectorAll('form[data-preview-action]');
  for (var i = 0; i < forms.length; i++) {
    var panel = forms[i].querySelector('#signal-preview');
    if (panel && !panel.firstElementChild) refreshPreview(forms[i]);
  }
});
`;
