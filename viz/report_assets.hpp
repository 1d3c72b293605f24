// The report's inline style sheet and script: hover read-outs, linked zoom and pan, the timeline's close-up of spells.
#pragma once

namespace twinsched::viz {

/// Everything is inline: the page loads nothing (its Content-Security-Policy forbids it).
inline constexpr const char* report_css = R"CSS(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1180px;padding:0 20px 60px;color:#1d2430;background:#fbfbfd}
h1{font-size:22px;margin:22px 0 4px}h2{font-size:18px;margin:30px 0 6px;border-bottom:1px solid #dde;padding-bottom:3px}
h3{font-size:15px;margin:18px 0 4px}.sub{color:#556;margin:0 0 10px}.note{color:#667;font-size:12.5px;margin:2px 0 8px}
table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}td,th{padding:3px 10px;border-bottom:1px solid #e4e6ee;text-align:right}
td:first-child,th:first-child{text-align:left}th{background:#f0f2f8;font-weight:600}tr.big td{background:#fff2d6;font-weight:600}
.kv td{text-align:left}.ok{color:#0a7d32;font-weight:600}.bad{color:#b3261e;font-weight:600}
figure{margin:8px 0 16px}figcaption{font-weight:600;margin-bottom:2px}svg{display:block;background:#fff;border:1px solid #e1e3ea;border-radius:4px}
svg.zoom{cursor:grab}.axis text,.lbl{font-size:11px;fill:#556}.legend span{display:inline-block;margin-right:14px;font-size:12px}
.legend i{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:-1px}
.bar{display:inline-block;height:10px;background:#4c78a8;vertical-align:middle}.two{display:grid;grid-template-columns:1fr 1fr;gap:18px}
#tip{position:fixed;pointer-events:none;background:#1d2430;color:#fff;font-size:12px;padding:3px 7px;border-radius:3px;display:none;z-index:9;white-space:pre}
)CSS";

inline constexpr const char* report_js = R"JS(
(function(){
'use strict';
var tip=document.getElementById('tip');
function showTip(ev,text){tip.textContent=text;tip.style.display='block';tip.style.left=(ev.clientX+14)+'px';tip.style.top=(ev.clientY+12)+'px';}
function hideTip(){tip.style.display='none';}
function fmtNs(ns){var a=Math.abs(ns);if(a>=1e9)return (ns/1e9).toPrecision(4)+' s';if(a>=1e6)return (ns/1e6).toPrecision(4)+' ms';if(a>=1e3)return (ns/1e3).toPrecision(4)+' µs';return Math.round(ns)+' ns';}
function fmtV(v){var a=Math.abs(v);if(a>=1e6)return (v/1e6).toPrecision(4)+' M';if(a>=1e3)return (v/1e3).toPrecision(4)+' k';return (Math.round(v*100)/100)+'';}
var NS='http://www.w3.org/2000/svg';
function el(name,attrs){var e=document.createElementNS(NS,name);for(var k in attrs)e.setAttribute(k,attrs[k]);return e;}
document.querySelectorAll('[data-tip]').forEach(function(e){
  e.addEventListener('mousemove',function(ev){showTip(ev,e.getAttribute('data-tip'));});
  e.addEventListener('mouseleave',hideTip);});
// Time charts: the plot's x runs 0..1000 over [0, range] ns; zoom and pan change its viewBox.
var charts=[].slice.call(document.querySelectorAll('svg.zoom'));
function plotOf(c){return c.querySelector('svg.plot');}
function view(c){var b=plotOf(c).getAttribute('viewBox').split(' ').map(Number);return {x:b[0],w:b[2],h:b[3]};}
function setView(c,x,w){var v=view(c);w=Math.max(1e-6,Math.min(1000,w));x=Math.max(0,Math.min(1000-w,x));
  plotOf(c).setAttribute('viewBox',x+' 0 '+w+' '+v.h);drawAxis(c);drawDetail(c);}
function linked(c,x,w){var g=c.getAttribute('data-link');charts.forEach(function(o){if(o===c||(g&&o.getAttribute('data-link')===g))setView(o,x,w);});}
function drawAxis(c){var g=c.querySelector('g.xaxis');if(!g)return;while(g.firstChild)g.removeChild(g.firstChild);
  var v=view(c),range=+c.getAttribute('data-range'),p=plotOf(c),px=+p.getAttribute('x'),pw=+p.getAttribute('width'),y=+p.getAttribute('y')+(+p.getAttribute('height'));
  var t0=v.x/1000*range,t1=(v.x+v.w)/1000*range,step=Math.pow(10,Math.floor(Math.log10(Math.max(1,(t1-t0)/5))));
  if((t1-t0)/step>10)step*=2;if((t1-t0)/step>10)step*=2.5;
  for(var t=Math.ceil(t0/step)*step;t<=t1;t+=step){var X=px+(t-t0)/(t1-t0)*pw;
    g.appendChild(el('line',{x1:X,x2:X,y1:y,y2:y+4,stroke:'#889'}));var tx=el('text',{x:X,y:y+15,'text-anchor':'middle'});tx.textContent=fmtNs(t);g.appendChild(tx);}}
function drawDetail(c){var d=c.querySelector('g.detail');if(!d)return;var src=document.getElementById(c.getAttribute('data-spells'));if(!src)return;
  if(!src._spells)src._spells=JSON.parse(src.textContent);var sp=src._spells,v=view(c),range=+c.getAttribute('data-range'),rows=JSON.parse(c.getAttribute('data-rows'));
  var t0=v.x/1000*range,t1=(v.x+v.w)/1000*range,bins=c.querySelector('g.bins');while(d.firstChild)d.removeChild(d.firstChild);
  var shown=[];for(var i=0;i<sp.length&&shown.length<=4000;i++){var s=sp[i];if(s[3]>=t0&&s[2]<=t1)shown.push(s);}
  var close=shown.length>0&&shown.length<=4000&&(t1-t0)<range/4;bins.style.opacity=close?0.25:1;if(!close)return;
  var colors=['','#2e8b57','#f0b429','#9aa3b5'],rh=+c.getAttribute('data-row-height');
  shown.forEach(function(s){var r=rows.indexOf(s[0]);if(r<0)return;var x=s[2]/range*1000,w=Math.max((s[3]-s[2])/range*1000,v.w/2000);
    var e=el('rect',{x:x,y:r*rh+2,width:w,height:rh-4,fill:colors[s[1]]});
    e.setAttribute('data-tip',['','running actor '+s[4],'idle','parked'][s[1]]+'\n'+fmtNs(s[2])+' … '+fmtNs(s[3])+' ('+fmtNs(s[3]-s[2])+')');
    e.addEventListener('mousemove',function(ev){showTip(ev,e.getAttribute('data-tip'));});e.addEventListener('mouseleave',hideTip);d.appendChild(e);});}
charts.forEach(function(c){var p=plotOf(c),drag=null;
  c.addEventListener('wheel',function(ev){ev.preventDefault();var r=p.getBoundingClientRect(),v=view(c),f=(ev.clientX-r.left)/r.width;
    var k=ev.deltaY<0?0.8:1.25,w=v.w*k;linked(c,v.x+f*v.w-f*w,w);},{passive:false});
  c.addEventListener('mousedown',function(ev){drag={x:ev.clientX,v:view(c)};c.style.cursor='grabbing';});
  window.addEventListener('mouseup',function(){drag=null;c.style.cursor='';});
  c.addEventListener('mousemove',function(ev){var r=p.getBoundingClientRect(),v=view(c);
    if(drag){linked(c,drag.v.x-(ev.clientX-drag.x)/r.width*drag.v.w,drag.v.w);return;}
    var src=c.querySelector('script.chart-data');if(!src||ev.target.getAttribute('data-tip'))return;if(!src._d)src._d=JSON.parse(src.textContent);
    var f=(ev.clientX-r.left)/r.width;if(f<0||f>1){hideTip();return;}var t=(v.x+f*v.w)/1000*(+c.getAttribute('data-range'));
    var lines=[fmtNs(t)];src._d.forEach(function(s){var k=Math.floor(t/s.bin);if(k>=0&&k<s.v.length)lines.push(s.name+': '+fmtV(s.v[k])+(s.unit?' '+s.unit:''));});showTip(ev,lines.join('\n'));});
  c.addEventListener('mouseleave',hideTip);
  c.addEventListener('dblclick',function(){linked(c,0,1000);});
  drawAxis(c);});
var drawn=[].slice.call(document.querySelectorAll('svg.chart')).map(function(s){return s.querySelectorAll('rect,polyline,polygon,line,circle,path').length;});
document.body.setAttribute('data-charts',drawn.length);
document.body.setAttribute('data-empty-charts',drawn.filter(function(n){return n===0;}).length);
document.body.setAttribute('data-ready','yes');
})();
)JS";

}  // namespace twinsched::viz
