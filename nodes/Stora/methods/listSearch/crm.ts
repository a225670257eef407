// CRM resources' list searches (contacts, deals, tasks, notes, contracts, identity verifications).
import type { IDataObject } from 'n8n-workflow';

import { searchListMethod } from './searchList';

const idOf = (record: IDataObject, field: string) =>
	String((record[field] as IDataObject | null | undefined)?.id ?? '');

/** Short one-line preview of a free text (note content, task title). */
const preview = (text: unknown, length = 60) => {
	const plain = String(text ?? '')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > length ? `${plain.slice(0, length - 1)}…` : plain;
};

export const searchContacts = searchListMethod({
	path: '/contacts',
	label: (contact) => {
		const name = String(contact.full_name ?? '').trim();
		const email = String(contact.email ?? '');
		return name ? `${name} (${email})` : email || String(contact.id);
	},
	searchParam: 'search',
});

export const searchDeals = searchListMethod({
	path: '/deals',
	label: (deal) => `${String(deal.name ?? deal.id)} [${String(deal.status ?? '')}]`,
	searchParam: 'search',
});

export const searchTasks = searchListMethod({
	path: '/tasks',
	label: (task) => `${preview(task.title) || String(task.id)} [${String(task.status ?? '')}]`,
	searchParam: 'search',
});

export const searchNotes = searchListMethod({
	path: '/notes',
	label: (note) => `${preview(note.content) || String(note.id)} (${idOf(note, 'resource')})`,
});

export const searchContracts = searchListMethod({
	path: '/contracts',
	label: (contract) => `${String(contract.name ?? contract.id)} [${String(contract.status ?? '')}]`,
});

export const searchIdentityVerifications = searchListMethod({
	path: '/identity_verifications',
	label: (check) => `${idOf(check, 'contact') || String(check.id)} – ${String(check.status ?? '')}`,
});
