// Runs waiting for the person: an approval with Approve and Deny, or a step's question (a
// pi step's) with the controls its kind needs. What is typed into an answer survives the
// live redraws until it is sent.
import { call } from '/api.js';
import { say, describeError } from '/notice.js';
import { button, element, link, table, when } from '/dom.js';

const drafts = new Map();  // run id and step → the answer being typed

function draftKey(run) {
  return `${run.run_id}/${run.waiting_step || ''}`;
}

// The controls that answer one question; `send` takes run.answer's params.
function answerControls(run, send) {
  const { question } = run;
  const id = `answer-${run.run_id}`;
  const about = `run ${run.run_id}: ${question.title || 'pi asks'}`;
  const cancel = button('Cancel question', () => send({ cancel: true }, 'cancelled'), {
    className: 'danger', 'aria-label': `Cancel the question of ${about}`,
  });
  if (question.kind === 'select') {
    return element('div', { className: 'row' }, [
      ...question.options.map((option) => button(option, () => send({ value: option }, option), {
        'aria-label': `Answer ${option} to ${about}`,
      })),
      cancel,
    ]);
  }
  if (question.kind === 'confirm') {
    return element('div', { className: 'row' }, [
      button('Yes', () => send({ confirm: 'yes' }, 'yes'), { 'aria-label': `Answer yes to ${about}` }),
      button('No', () => send({ confirm: 'no' }, 'no'), { 'aria-label': `Answer no to ${about}` }),
      cancel,
    ]);
  }
  const key = draftKey(run);
  const multiline = question.kind === 'editor';
  const field = element(multiline ? 'textarea' : 'input', {
    id,
    value: drafts.has(key) ? drafts.get(key) : (multiline ? question.prefill : ''),
    placeholder: question.placeholder || '',
    'aria-label': `Answer to ${about}`,
    ...(multiline ? { rows: 6 } : { type: 'text' }),
  });
  field.addEventListener('input', () => drafts.set(key, field.value));
  return element('div', { className: 'answer' }, [
    field,
    element('div', { className: 'row' }, [
      button('Answer', () => send({ value: field.value }, 'sent'), { 'aria-label': `Send the answer to ${about}` }),
      cancel,
    ]),
  ]);
}

function asks(run) {
  if (!run.question) return run.waiting_description || run.waiting_step || '—';
  const { question } = run;
  return element('div', {}, [
    element('strong', { textContent: run.waiting_description || 'pi asks' }),
    question.message ? element('p', { textContent: question.message }) : null,
    element('p', { className: 'hint', textContent: `${question.kind} question from ${run.waiting_step}` }),
  ]);
}

export async function approvalsPage(page) {
  const { approvals } = await call('approvals');
  const waiting = new Set(approvals.map(draftKey));
  for (const key of drafts.keys()) if (!waiting.has(key)) drafts.delete(key);
  const redraw = () => approvalsPage(page).catch((error) => say(describeError(error)));
  const decide = (method, run, said) => async () => {
    try {
      await call(method, { id: run.run_id });
      say(said);
    } catch (error) {
      say(describeError(error));
    }
    redraw();
  };
  const answer = (run) => async (params, what) => {
    try {
      await call('run.answer', { id: run.run_id, ...params });
      drafts.delete(draftKey(run));
      say(`Run ${run.run_id}: answer ${what}.`);
    } catch (error) {
      say(describeError(error));
    }
    redraw();
  };
  page.replaceChildren(
    element('h2', { textContent: 'Approvals' }),
    approvals.length === 0
      ? element('p', { textContent: 'No run is waiting for you.' })
      : table(['Run', 'Automation', 'Asks', 'Since', 'Until', 'Decide'], approvals.map((run) => [
        link(`#/run/${run.run_id}`, `Run ${run.run_id}`),
        run.automation_name,
        asks(run),
        when(run.waiting_since),
        when(run.approval_deadline),
        run.question
          ? answerControls(run, answer(run))
          : element('div', { className: 'row' }, [
            button('Approve', decide('run.approve', run, `Run ${run.run_id} approved.`), { 'aria-label': `Approve run ${run.run_id}` }),
            button('Deny', decide('run.deny', run, `Run ${run.run_id} denied.`), { className: 'danger', 'aria-label': `Deny run ${run.run_id}` }),
          ]),
      ])),
  );
}
