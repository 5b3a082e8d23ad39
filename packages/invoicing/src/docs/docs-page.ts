// GET /v1/docs: a self-contained reference page (inline CSS and JS, no CDN: it must work with no
// internet). It loads ./openapi.json — relative, so it works under any prefix — and renders
// every tag, operation, parameter and schema.
const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
header{background:#0d1117;color:#fff;padding:14px 24px;display:flex;gap:16px;align-items:center}
header h1{font-size:18px;margin:0}header input{margin-left:auto;padding:6px 10px;border-radius:6px;border:0;min-width:260px}
.layout{display:flex}nav{width:240px;flex:none;height:calc(100vh - 56px);overflow:auto;position:sticky;top:0;padding:12px;border-right:1px solid #d0d7de;background:#fff}
nav a{display:block;padding:3px 8px;border-radius:4px;color:#1f2328;text-decoration:none}nav a:hover{background:#eaeef2}
main{flex:1;padding:16px 28px;max-width:1100px}section.tag{margin-bottom:28px}section.tag>h2{border-bottom:1px solid #d0d7de;padding-bottom:4px}
.op{background:#fff;border:1px solid #d0d7de;border-radius:8px;margin:10px 0}.op>summary{cursor:pointer;padding:8px 12px;display:flex;gap:10px;align-items:center}
.m{font:600 12px ui-monospace,monospace;padding:2px 8px;border-radius:4px;color:#fff;min-width:62px;text-align:center}
.GET{background:#0969da}.POST{background:#1a7f37}.PATCH{background:#9a6700}.DELETE{background:#cf222e}
code,.path{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}.body{padding:4px 14px 12px}
table{border-collapse:collapse;width:100%;margin:6px 0}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
.muted{color:#656d76}.err{color:#cf222e}`;

const SCRIPT = `
(function(){
  var main=document.getElementById('content'),nav=document.getElementById('nav'),filter=document.getElementById('filter');
  function el(tag,attrs,children){var e=document.createElement(tag);for(var k in attrs||{}){if(k==='text')e.textContent=attrs[k];else e.setAttribute(k,attrs[k]);}
    (children||[]).forEach(function(c){if(c)e.appendChild(c)});return e;}
  function resolve(doc,s){var seen=0;while(s&&s.$ref&&seen++<20){var parts=s.$ref.replace(/^#\\//,'').split('/');s=parts.reduce(function(o,p){return o&&o[p]},doc);}return s||{};}
  function typeOf(doc,s){s=resolve(doc,s);if(s.enum)return s.enum.join(' | ');if(s.anyOf||s.oneOf)return (s.anyOf||s.oneOf).map(function(x){return typeOf(doc,x)}).join(' or ');
    if(s.type==='array')return 'array of '+typeOf(doc,s.items||{});var t=Array.isArray(s.type)?s.type.join(' | '):(s.type||'any');return s.format?t+' ('+s.format+')':t;}
  function schemaTable(doc,s){s=resolve(doc,s);if(s.allOf){var merged={properties:{},required:[]};s.allOf.forEach(function(p){p=resolve(doc,p);Object.assign(merged.properties,p.properties||{});merged.required=merged.required.concat(p.required||[])});s=merged;}
    if(s.oneOf&&!s.properties)s=resolve(doc,s.oneOf[0]);if(s.type==='array')s=resolve(doc,s.items);var props=s.properties||{};var names=Object.keys(props);
    if(!names.length)return el('p',{class:'muted',text:typeOf(doc,s)});var req=s.required||[];
    return el('table',{},[el('tr',{},[el('th',{text:'field'}),el('th',{text:'type'}),el('th',{text:'required'})])].concat(names.map(function(n){
      return el('tr',{},[el('td',{},[el('code',{text:n})]),el('td',{text:typeOf(doc,props[n])}),el('td',{text:req.indexOf(n)>=0?'yes':''})]);})));}
  function operation(doc,path,method,op){var params=(op.parameters||[]).map(function(p){return resolve(doc,p)});
    var body=el('div',{class:'body'},[op.description?el('p',{text:op.description}):null]);
    if(params.length){body.appendChild(el('h4',{text:'Parameters'}));body.appendChild(el('table',{},[el('tr',{},[el('th',{text:'name'}),el('th',{text:'in'}),el('th',{text:'type'}),el('th',{text:'description'})])].concat(params.map(function(p){
      return el('tr',{},[el('td',{},[el('code',{text:p.name})]),el('td',{text:p.in}),el('td',{text:typeOf(doc,p.schema||{})}),el('td',{text:p.description||''})]);}))));}
    if(op.requestBody){var rb=op.requestBody.content['application/json'];body.appendChild(el('h4',{text:'Request body'}));body.appendChild(schemaTable(doc,rb.schema));}
    Object.keys(op.responses||{}).forEach(function(code){var r=resolve(doc,op.responses[code]);var c=r.content&&r.content['application/json'];
      body.appendChild(el('h4',{text:'Response '+code+' — '+(r.description||'')}));if(c&&/^2/.test(code)){var s=resolve(doc,c.schema);var d=s.properties&&s.properties.data;body.appendChild(schemaTable(doc,d||s));}});
    return el('details',{class:'op','data-search':(method+' '+path+' '+(op.summary||'')).toLowerCase()},[el('summary',{},[el('span',{class:'m '+method.toUpperCase(),text:method.toUpperCase()}),el('span',{class:'path',text:path}),el('span',{class:'muted',text:op.summary||''})]),body]);}
  function render(doc){document.title=doc.info.title+' — reference';document.getElementById('title').textContent=doc.info.title+' '+doc.info.version;
    var byTag={};Object.keys(doc.paths).forEach(function(path){var item=doc.paths[path];['get','post','patch','put','delete'].forEach(function(m){if(!item[m])return;var tag=(item[m].tags||['other'])[0];(byTag[tag]=byTag[tag]||[]).push([path,m,item[m]]);});});
    main.appendChild(el('p',{text:doc.info.description||''}));
    (doc.tags||[]).forEach(function(t){var ops=byTag[t.name];if(!ops)return;var id='tag-'+t.name;nav.appendChild(el('a',{href:'#'+id,text:t.name,'data-resource':t.name}));
      main.appendChild(el('section',{class:'tag',id:id},[el('h2',{text:t.name}),el('p',{class:'muted',text:t.description||''})].concat(ops.map(function(o){return operation(doc,o[0],o[1],o[2])}))));});
    filter.addEventListener('input',function(){var q=filter.value.toLowerCase();document.querySelectorAll('details.op').forEach(function(d){d.style.display=d.getAttribute('data-search').indexOf(q)>=0?'':'none'});});
    document.body.setAttribute('data-ready','true');}
  fetch('openapi.json').then(function(r){if(!r.ok)throw new Error('openapi.json: HTTP '+r.status);return r.json()}).then(render)
    .catch(function(e){main.appendChild(el('p',{class:'err',text:'Could not load the API description: '+e.message}));document.body.setAttribute('data-ready','error');});
})();`;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Invoicing API reference</title><link rel="icon" href="data:,"><style>${CSS}</style></head>
<body><header><h1 id="title">Invoicing API</h1><input id="filter" type="search" placeholder="Filter operations…" aria-label="Filter operations"></header>
<div class="layout"><nav id="nav" aria-label="Resources"></nav><main id="content"></main></div>
<script>${SCRIPT}</script></body></html>`;

export function docsPage(): string {
  return PAGE;
}
