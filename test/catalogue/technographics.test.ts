import {
  findTechnographicTool,
  listTechnographicTools,
  technographicCategories,
} from '../../src/catalogue/technographics';

describe('technographic tools', () => {
  it('has a large catalogue of uniquely named tools', () => {
    const tools = listTechnographicTools();
    expect(tools.length).toBeGreaterThanOrEqual(120);
    expect(new Set(tools.map((tool) => tool.name.toLowerCase())).size).toBe(tools.length);
    for (const tool of tools) expect(technographicCategories()).toContain(tool.category);
  });

  it('searches names and categories case-insensitively', () => {
    expect(listTechnographicTools('salesforce').map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['Salesforce', 'Salesforce Commerce Cloud']),
    );
    const crm = listTechnographicTools('crm');
    expect(crm.map((tool) => tool.name)).toEqual(expect.arrayContaining(['Salesforce', 'HubSpot CRM', 'Pipedrive']));
    expect(listTechnographicTools('ANALYTICS').some((tool) => tool.name === 'Mixpanel')).toBe(true);
    expect(listTechnographicTools('no such tool')).toEqual([]);
    expect(listTechnographicTools('  ')).toHaveLength(listTechnographicTools().length);
  });

  it('finds a tool whatever its casing', () => {
    expect(findTechnographicTool('amazon web services')).toEqual({
      name: 'Amazon Web Services',
      category: 'Cloud Infrastructure',
    });
    expect(findTechnographicTool('Notepad')).toBeUndefined();
  });

  it('does not let callers change the catalogue', () => {
    listTechnographicTools()[0].name = 'Changed';
    expect(listTechnographicTools()[0].name).not.toBe('Changed');
  });
});
