// Runs waiting for the person, each with Approve and Deny.
import { call } from '/api.js';
import { say, describeError } from '/notice.js';
import { button, element, link, table, when } from '/dom.js';

export async function approvalsPage(page) {
  const { approvals } = await call('approvals');
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
  page.replaceChildren(
    element('h2', { textContent: 'Approvals' }),
    approvals.length === 0
      ? element('p', { textContent: 'No run is waiting for you.' })
      : table(['Run', 'Automation', 'Asks', 'Since', 'Until', 'Decide'], approvals.map((run) => [
        link(`#/run/${run.run_id}`, `Run ${run.run_id}`),
        run.automation_name,
        run.waiting_description || run.waiting_step || '—',
        when(run.waiting_since),
        when(run.approval_deadline),
        element('div', { className: 'row' }, [
          button('Approve', decide('run.approve', run, `Run ${run.run_id} approved.`), { 'aria-label': `Approve run ${run.run_id}` }),
          button('Deny', decide('run.deny', run, `Run ${run.run_id} denied.`), { className: 'danger', 'aria-label': `Deny run ${run.run_id}` }),
        ]),
      ])),
  );
}
