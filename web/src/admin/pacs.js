// Remote PACS: the store as a DICOM client of the configured peers (medjava.dicom.remotes). Echo (C-ECHO); query
// studies (C-FIND, keys as query parameters) with what the store holds already marked; retrieve a study into the
// store as a background job (POST /jobs kind "retrieve": C-MOVE or C-GET, any node, followed here); send a study of
// the store to a peer (C-STORE: POST .../send runs within its request, so it is timed here, not tracked).
import { api, qido, value } from '../api.js';
import { h, notify } from '../ui.js';
import { submitJob, watchJob, jobLine, resultOf, retrieveCounts } from './jobs.js';
import { formatDicomDate, formatName, formatDuration } from './format.js';

export async function renderPacs(box) {
  box.append(h('h2', {}, 'Remote PACS'));
  let remotes;
  try {
    remotes = await api('/pacs/remotes');
  } catch (e) {
    box.append(h('p', { class: 'problem' }, e.message));
    return () => {};
  }
  if (!remotes.length) {
    box.append(h('p', { class: 'empty', dataset: { test: 'no-remotes' } }, 'No remote PACS is configured. Name them in ',
      h('code', {}, 'medjava.dicom.remotes'), ' (', h('code', {}, 'MEDJAVA_DICOM_REMOTES=\'PACS=pacs.example.org:11112\''),
      '); for retrieves by C-MOVE the remote must know the store\'s AE title and the store must allow the remote\'s ',
      '(', h('code', {}, 'medjava.dicom.allowed-aets'), ').'));
    return () => {};
  }
  const watches = new Set();
  box.append(remotesTable(remotes), queryPanel(remotes, watches), sendPanel(remotes));
  return () => watches.forEach((w) => w.stop());
}

function remotesTable(remotes) {
  return h('table', { class: 'grid', dataset: { test: 'remotes' } },
    h('thead', {}, h('tr', {}, ['AE title', 'Host', 'Port', 'Echo'].map((t) => h('th', {}, t)))),
    h('tbody', {}, remotes.map((r) => {
      const result = h('span', { dataset: { test: 'echo-result' } });
      const button = h('button', { type: 'button', dataset: { test: 'echo' } }, 'Echo');
      button.onclick = async () => {
        button.disabled = true;
        result.className = 'muted';
        result.textContent = 'asking…';
        try {
          const e = await api(`/pacs/remotes/${encodeURIComponent(r.aeTitle)}/echo`, { method: 'POST' });
          result.className = 'ok';
          result.textContent = `answered in ${e.millis} ms`;
        } catch (err) {
          result.className = 'problem';
          result.textContent = err.message;
        } finally {
          button.disabled = false;
        }
      };
      return h('tr', { dataset: { test: 'remote', ae: r.aeTitle } }, h('td', {}, r.aeTitle), h('td', {}, r.host),
        h('td', {}, String(r.port)), h('td', {}, button, ' ', result));
    })));
}

function remoteSelect(remotes, test) {
  return h('select', { dataset: { test } }, remotes.map((r) => h('option', { value: r.aeTitle }, r.aeTitle)));
}

/** YYYY-MM-DD inputs to a DICOM date range (20240101-20240131, open at either end). */
function dateRange(from, to) {
  const d = (x) => x.replaceAll('-', '');
  if (!from && !to) return '';
  return from === to ? d(from) : `${d(from)}-${d(to)}`;
}

function queryPanel(remotes, watches) {
  const ae = remoteSelect(remotes, 'query-remote');
  const field = (name, placeholder, test) => h('input', { name, placeholder, dataset: { test } });
  const patientId = field('PatientID', 'Patient ID (* ?)', 'query-patient-id');
  const patientName = field('PatientName', 'Patient name (Doe^J*)', 'query-patient-name');
  const accession = field('AccessionNumber', 'Accession number', 'query-accession');
  const modality = field('ModalitiesInStudy', 'Modality (CT)', 'query-modality');
  const from = h('input', { type: 'date', title: 'study date from' });
  const to = h('input', { type: 'date', title: 'study date to' });
  const method = h('select', { dataset: { test: 'retrieve-method' },
    title: 'C-MOVE: the remote sends to the store\'s own DICOM port (it must know the store\'s AE title); '
      + 'C-GET: the objects come back on the same association' },
  h('option', { value: 'move' }, 'by C-MOVE'), h('option', { value: 'get' }, 'by C-GET'));
  const results = h('div', { dataset: { test: 'query-results' } });
  const form = h('form', { class: 'query', onsubmit: async (e) => {
    e.preventDefault();
    const keys = { PatientID: patientId.value, PatientName: patientName.value, AccessionNumber: accession.value,
      ModalitiesInStudy: modality.value, StudyDate: dateRange(from.value, to.value) };
    const q = new URLSearchParams(Object.entries(keys).filter(([, v]) => v.trim()));
    results.replaceChildren(h('p', { class: 'muted' }, `Asking ${ae.value}…`));
    try {
      const studies = await api(`/pacs/remotes/${encodeURIComponent(ae.value)}/studies?${q}`);
      results.replaceChildren(await studiesTable(ae.value, studies, method, watches));
    } catch (err) {
      results.replaceChildren(h('p', { class: 'problem' }, err.message));
    }
  } },
  h('h3', {}, 'Query and retrieve'),
  h('div', { class: 'row' }, ae, patientId, patientName, accession, modality, h('label', {}, 'from ', from),
    h('label', {}, 'to ', to), h('button', { type: 'submit', class: 'primary', dataset: { test: 'query-submit' } }, 'Find studies')),
  h('div', { class: 'row' }, h('span', { class: 'muted' }, 'Retrieve'), method),
  results);
  return form;
}

/** Which of these studies the store holds already (QIDO on our own index). */
async function inStore(uids) {
  if (!uids.length) return new Map();
  try {
    const found = await qido('studies', { StudyInstanceUID: uids.join('\\') });
    return new Map(found.map((s) => [value(s, 'StudyInstanceUID'), value(s, 'NumberOfStudyRelatedInstances')]));
  } catch {
    return new Map();
  }
}

async function studiesTable(ae, studies, method, watches) {
  if (!studies.length) return h('p', { class: 'muted', dataset: { test: 'query-none' } }, `${ae} has no study matching these keys.`);
  const local = await inStore(studies.map((s) => s.StudyInstanceUID).filter(Boolean));
  return h('table', { class: 'grid' },
    h('thead', {}, h('tr', {}, ['Patient', 'ID', 'Date', 'Description', 'Modality', 'Series / images', 'In the store', '']
      .map((t) => h('th', {}, t)))),
    h('tbody', {}, studies.map((s) => {
      const status = h('div', { class: 'job-status' });
      const have = local.get(s.StudyInstanceUID);
      const localCell = h('td', { dataset: { test: 'in-store' } }, have !== undefined
        ? h('a', { href: `#/view?study=${encodeURIComponent(s.StudyInstanceUID)}` }, images(have)) : '—');
      const retrieve = h('button', { type: 'button', dataset: { test: 'retrieve' } }, 'Retrieve');
      retrieve.onclick = async () => {
        retrieve.disabled = true;
        try {
          const job = await submitJob('retrieve', { ae, StudyInstanceUID: s.StudyInstanceUID, method: method.value });
          const w = watchJob(job.id, (j) => status.replaceChildren(jobLine(j)));
          watches.add(w);
          const end = await w.done;
          watches.delete(w);
          status.append(retrieveOutcome(end, s.StudyInstanceUID));
          const now = await inStore([s.StudyInstanceUID]);
          if (now.has(s.StudyInstanceUID)) {
            localCell.replaceChildren(h('a', { href: `#/view?study=${encodeURIComponent(s.StudyInstanceUID)}` },
              images(now.get(s.StudyInstanceUID))));
          }
        } catch (err) {
          status.replaceChildren(h('span', { class: 'problem' }, err.message));
        } finally {
          retrieve.disabled = false;
        }
      };
      return h('tr', { dataset: { test: 'remote-study', uid: s.StudyInstanceUID } },
        h('td', {}, formatName(s.PatientName)), h('td', {}, s.PatientID ?? ''),
        h('td', {}, formatDicomDate(s.StudyDate)), h('td', {}, s.StudyDescription ?? ''),
        h('td', {}, s.ModalitiesInStudy ?? ''),
        h('td', {}, `${s.NumberOfStudyRelatedSeries ?? '?'} / ${s.NumberOfStudyRelatedInstances ?? '?'}`),
        localCell, h('td', {}, retrieve, status));
    })));
}

function images(n) {
  return n === undefined || n === null ? 'yes' : `${n} image${Number(n) === 1 ? '' : 's'}`;
}

function retrieveOutcome(job, uid) {
  if (job.state === 'FAILED') {
    return h('p', { class: 'problem', dataset: { test: 'retrieve-outcome' } }, `Failed: ${job.result}`);
  }
  const r = resultOf(job);
  // Instances the store held already (it refused the copies as its duplicate policy says) are no failure.
  return h('p', { class: r.failed ? 'problem' : 'ok', dataset: { test: 'retrieve-outcome' } },
    `${retrieveCounts(r)} (by ${r.method}); ${r.instancesInStore} of the study's instances are in the store. `,
    r.instancesInStore > 0 && h('a', { href: `#/view?study=${encodeURIComponent(uid)}` }, 'View'),
    (r.errors ?? []).length ? h('ul', {}, r.errors.slice(0, 10).map((e) => h('li', {}, e))) : '');
}

function sendPanel(remotes) {
  const ae = remoteSelect(remotes, 'send-remote');
  const patient = h('input', { placeholder: 'Patient ID or name (* ?)', dataset: { test: 'send-search' } });
  const results = h('div', { dataset: { test: 'send-results' } });
  return h('form', { class: 'send', onsubmit: async (e) => {
    e.preventDefault();
    const text = patient.value.trim();
    // Our own index by QIDO: an ID-looking text matches PatientID, else the name (case-insensitive).
    const byName = /[a-z]{2}|\^|\s/i.test(text) && !/\d/.test(text);
    try {
      const studies = await qido('studies', { limit: 50, fuzzymatching: byName ? 'true' : undefined,
        [byName ? 'PatientName' : 'PatientID']: text || undefined });
      results.replaceChildren(localStudies(studies, ae));
    } catch (err) {
      results.replaceChildren(h('p', { class: 'problem' }, err.message));
    }
  } },
  h('h3', {}, 'Send a study from the store'),
  h('div', { class: 'row' }, patient, h('button', { type: 'submit', dataset: { test: 'send-find' } }, 'Find in the store'),
    h('span', { class: 'muted' }, 'to'), ae),
  results);
}

function localStudies(studies, ae) {
  if (!studies.length) return h('p', { class: 'muted' }, 'No study in the store matches.');
  return h('table', { class: 'grid' },
    h('thead', {}, h('tr', {}, ['Patient', 'ID', 'Date', 'Description', 'Images', ''].map((t) => h('th', {}, t)))),
    h('tbody', {}, studies.map((s) => {
      const uid = value(s, 'StudyInstanceUID');
      const outcome = h('div');
      const send = h('button', { type: 'button', dataset: { test: 'send' } }, 'Send');
      send.onclick = async () => {
        send.disabled = true;
        const started = Date.now();
        const tick = setInterval(() => { outcome.textContent = `sending to ${ae.value}… ${formatDuration(Date.now() - started)}`; }, 500);
        outcome.className = 'muted';
        outcome.textContent = `sending to ${ae.value}…`;
        try {
          // C-STORE runs within this request: the store reports no progress until it ends.
          const r = await api(`/pacs/remotes/${encodeURIComponent(ae.value)}/send`, { method: 'POST',
            json: { StudyInstanceUID: uid } });
          outcome.className = r.failed ? 'problem' : 'ok';
          outcome.replaceChildren(`${r.completed} sent, ${r.failed} failed, ${r.warning} with warnings to ${ae.value} `
            + `in ${formatDuration(Date.now() - started)}.`,
          (r.errors ?? []).length ? h('ul', {}, r.errors.slice(0, 10).map((x) => h('li', {}, x))) : '');
          if (!r.failed) notify(`Study sent to ${ae.value}.`, 'ok');
        } catch (err) {
          outcome.className = 'problem';
          outcome.textContent = err.message;
        } finally {
          clearInterval(tick);
          send.disabled = false;
        }
      };
      return h('tr', { dataset: { test: 'local-study', uid } },
        h('td', {}, formatName(value(s, 'PatientName'))), h('td', {}, value(s, 'PatientID') ?? ''),
        h('td', {}, formatDicomDate(value(s, 'StudyDate'))), h('td', {}, value(s, 'StudyDescription') ?? ''),
        h('td', {}, String(value(s, 'NumberOfStudyRelatedInstances') ?? '')),
        h('td', {}, send, h('span', { dataset: { test: 'send-outcome' } }, outcome)));
    })));
}
